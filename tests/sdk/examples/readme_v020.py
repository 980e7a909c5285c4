# The code blocks of the DiaryVault Memory Layer README (v0.2 "Quick Start"), in order.
# Only the import lines differ (``diaryvault_memory`` -> ``core``). See NOTICE.md.
# ruff: noqa: E402
from core import MemoryVault

vault = MemoryVault(encryption_key="your-secret-key")

vault.create(content="I'm allergic to shellfish", tags=["health"])
vault.create(content="I work at a fintech startup in Seoul", tags=["work"])
vault.create(content="I prefer morning meetings before 10am", tags=["preference"])
vault.create(content="My salary is 150k", tags=["financial", "private"])

from core import ContextRequest

# Agent requests context
request = ContextRequest(
    agent_id="scheduling-agent-001",
    scope=["preference", "work"],
    purpose="Personalize meeting scheduling",
)

# User controls what gets shared (health and financial data blocked)
response = vault.share(request, denied_tags=["health", "financial", "private"])

print(response.memory_count)    # 2 (only preference + work)
print(response.scope_granted)   # ['preference', 'work']
print(response.scope_denied)    # []
print(response.verify_all())    # True — every memory is hash-verified

# Agent gets verified context:
for mem in response.shared_memories:
    print(f"  [{', '.join(mem.tags)}] {mem.content} (verified={mem.verified})")
    # [preference] I prefer morning meetings before 10am (verified=True)
    # [work] I work at a fintech startup in Seoul (verified=True)

# Agent CANNOT see: health data, salary, anything you didn't approve
