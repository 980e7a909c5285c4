# The code blocks of the DiaryVault Memory Layer README (v0.4.0), in order, one after the other.
# Only the import lines differ (``diaryvault_memory`` -> ``core``). See NOTICE.md.
# ruff: noqa: E402
from core import MemoryVault

vault = MemoryVault(
    encryption_key="replace-with-a-private-secret",
    storage_dir="./memory-data",
)

memory = vault.create(
    content="She laughed when the dog sneezed.",
    tags=["family", "milestone"],
)

assert vault.verify(memory)

print(memory.id)
print(memory.hash)

memory.content = "Changed content"

assert not vault.verify(memory)

from core import ContextRequest, MemoryVault

vault = MemoryVault(
    encryption_key="replace-with-a-private-secret",
    storage_dir="./memory-data",
)

request = ContextRequest(
    agent_id="family-story-agent",
    scope=["family", "milestone"],
    purpose="Prepare a private family recap",
    max_memories=5,
)

response = vault.share(
    request,
    allowed_tags=["milestone"],
    denied_tags=["private"],
)

assert response.verify_all()

for shared_memory in response.shared_memories:
    print(shared_memory.content)

from core import MemoryVault, VaultExporter

vault = MemoryVault(
    encryption_key="replace-with-a-private-secret",
    storage_dir="./memory-data",
)

exporter = VaultExporter(vault)

chunks = exporter.to_rag_chunks(tags=["family"])
graph = exporter.to_knowledge_graph(tags=["family"])
history = exporter.to_conversation_history(tags=["family"])

exporter.to_jsonl(
    "family-memories.jsonl",
    format="openai",
    tags=["family"],
)
