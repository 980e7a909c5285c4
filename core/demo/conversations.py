"""The demo home's conversations: a few weeks of chats between the person and three assistants, in
English, Korean and Japanese, several sessions a day, plus topic markers and the search index.

Everything goes through the real paths: the chats are imported as generic JSONL with
``core.conversation.ingest``, markers go through ``core.topics.add_marker``, and ``core.index.Reindexer``
builds the exact index (no vectors, so no model loads). The headline question is fixed: on "last
Tuesday night" the person made three decisions. English "last Tuesday night" and Korean/Japanese
"지난주 화요일 밤" / "先週の火曜日の夜" name different nights from Wednesday to Sunday, so the nights
are found with the temporal backbone itself (:func:`decision_nights`), and no other chat shares a
decision night, so the answer's top three are the decision's own turns.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from core.config import load_config
from core.conversation import ingest
from core.index import HomeDayLogs, Reindexer, SearchIndex
from core.recall import vault_docs
from core.timeparse import parse_time
from core.topics import add_marker
from core.turns import format_ts

if TYPE_CHECKING:
    from core.demo.build import DemoContext

PERSON = "me"
MODELS = {"claude": "claude-sonnet-4.5", "chatgpt": "gpt-4o", "llama": "llama3.1:8b"}
SEOUL = ZoneInfo("Asia/Seoul")
HISTORY_DAYS = 84  # runs and the odd chat go back this far; the busy weeks are the last four
BUSY_DAYS = 28


@dataclass(frozen=True)
class Chat:
    """One conversation: who the assistant is, a short name for its session, and its turns as
    ``(speaker, text)`` with speaker ``"me"``, ``"ai"`` or ``"tool"`` (an action the assistant ran)."""

    assistant: str
    slug: str
    turns: tuple[tuple[str, str], ...]


def chat(assistant: str, slug: str, *turns: tuple[str, str]) -> Chat:
    return Chat(assistant, slug, turns)


def me(text: str) -> tuple[str, str]:
    return (PERSON, text)


def ai(text: str) -> tuple[str, str]:
    return ("ai", text)


def tool(text: str) -> tuple[str, str]:
    return ("tool", text)


# fmt: off
# --- "last Tuesday night": three chats at once ------------------------------------------------------

DECISION_NIGHT = (
    chat(
        "claude",
        "index-decision",
        me("Can we settle the index question tonight? I keep going back and forth between a join on the ts "
           "column and the rowid-range idea."),
        ai("Let's settle it with numbers. On the 100k-turn bench the join on ts took 41 ms p50 for a one-day "
           "range; mapping the range to a rowid interval first took 1.3 ms. That's the 30x you saw. The rowid "
           "approach only needs turns to be numbered in time order per day, which the catalog already does."),
        me("And the semantic side? I don't want to maintain two vector stores."),
        ai("Keep sqlite-vec, but only as the semantic fallback: bound the range first, then search just that "
           "slice of vectors. vec0's metadata filters don't prune, partition keys do, so the range has to be "
           "applied before the vector search, not inside it."),
        me("OK. Decided: FTS5 with time-ordered rowids for exact search, sqlite-vec only when exact finds too "
           "little. Write the numbers into MEASUREMENTS.md so we don't reopen this."),
        ai("Done: MEASUREMENTS.md now has the join vs rowid-range table, the bench command, and a note that the "
           "decision was made tonight with Mina's numbers from the 1M-turn run."),
        tool("edited MEASUREMENTS.md (+38 lines): join on ts 41.2 ms p50 / rowid range 1.3 ms p50 at 100k turns"),
        me("Perfect. Mina will be happy, she argued for rowids from the start."),
    ),
    chat(
        "chatgpt",
        "curation-review-day",
        me("큐레이션 주간 리뷰를 언제 할지 아직 못 정했어. 평일 저녁은 늘 피곤하고."),
        ai("일요일 저녁은 어때요? 주말 장거리 달리기 끝나고 샤워하고 나면 머리가 맑다고 하셨잖아요. 30분이면 "
           "충분하고, 리마인더는 앱이 알아서 띄워 줄 거예요."),
        me("좋다. 그럼 결정했어: 매주 일요일 저녁, 장거리 달리기 끝나고 큐레이션 리뷰 하기."),
        ai("정리할게요: 매주 일요일 저녁 큐레이션 리뷰, 30분. 밀리면 월요일 아침 계획 때 먼저 알려 드릴게요."),
    ),
    chat(
        "claude",
        "deadline-email",
        me("佐藤さんにメールを書きたい。さっき電話で、新しいプロジェクトの締め切りを3月末に決めたので、その確認。"),
        ai("こんな感じはいかがでしょう。「佐藤さん、先ほどはお電話ありがとうございました。新しいプロジェクトの締め切り"
           "は3月31日に決めましたので、念のためご連絡します。中間レビューは2月中旬を予定しています。」"),
        me("いいね。中間レビューは2月20日にしておいて。"),
        ai("「中間レビューは2月20日」に直しました。件名は「締め切りの確認（3月31日）」でどうでしょう。"),
        me("それで送る。ありがとう。"),
    ),
)

# --- recurring chats ---------------------------------------------------------------------------------

MORNINGS = (  # Korean planning with ChatGPT, weekday mornings
    (("좋은 아침. 오늘 할 일 정리 좀 도와줘: 인덱스 마이그레이션 테스트, 치과 전화, 장보기."),
     ("좋은 아침이에요! 순서는 이렇게 제안해요: 1) 치과 전화 (오전 중, 5분) 2) 인덱스 마이그레이션 테스트 (집중 두 "
      "시간) 3) 퇴근길에 장보기. 마이그레이션은 점심 전에 끝내는 걸 목표로 할까요?"),
     ("응, 점심 전에 끝내자."),
     ("좋아요. 끝나면 결과를 한 줄로 남겨 두세요. 저녁에 이어서 보기 쉬워요.")),
    (("오늘 회의가 세 개야. 사이사이에 리뷰 큐 화면 손보고 싶은데 가능할까?"),
     ("회의 사이에 45분짜리 빈 시간이 두 번 있어요. 첫 번째는 리뷰 큐 정렬 버그, 두 번째는 80×24에서 푸터가 잘리는 "
      "문제에 쓰면 딱 맞아요."),
     ("푸터 문제 먼저 하자. 어제 SSH로 봤을 때 제일 거슬렸어."),
     ("그럼 첫 번째 빈 시간에 푸터, 두 번째에 정렬 버그로 바꿀게요.")),
    (("어제 너무 늦게 잤어. 오늘은 가볍게 가고 싶다."),
     ("그럼 오늘은 세 가지만 해요: 메일 정리, 테스트 깨진 것 하나 고치기, 저녁 산책. 나머지는 내일로 미뤄도 괜찮아요."),
     ("산책은 서울숲으로 갈래."),
     ("좋아요. 서울숲 산책 40분, 저녁 7시쯤으로 적어 둘게요.")),
    (("엄마 생신이 다음 달이야. 오늘 선물 알아보는 시간 좀 넣어 줘."),
     ("점심시간 20분을 선물 알아보기로 잡을게요. 지난번에 엄마가 제주 얘기를 많이 하셨으니 여행 쪽도 같이 볼까요?"),
     ("응, 제주 숙소랑 같이 보자."),
     ("협재 근처 숙소 세 곳을 점심 전에 추려 둘게요.")),
    (("오늘은 하루 종일 코딩만 하고 싶어. 방해 요소 정리해 줘."),
     ("알림 끄기, 메신저 상태 '집중'으로, 회의는 없음. 오전에는 시간 파서 테스트, 오후에는 한국어 표현 케이스 "
      "추가를 추천해요."),
     ("한국어 케이스는 '지난주 화요일 밤'이랑 '어젯밤' 위주로."),
     ("좋아요. 그 두 표현에 '3일 전', '지난 주말'까지 넣으면 표가 꽤 탄탄해질 거예요.")),
    (("이번 주 목표 다시 알려 줘."),
     ("이번 주 목표는 세 가지예요: 검색 화면 초안, 일본어 입력 테스트, 일요일 큐레이션 리뷰. 오늘은 검색 화면 초안에 "
      "집중하면 좋겠어요."),
     ("검색 화면에 시간 범위가 어떻게 해석됐는지 보여 주는 줄을 꼭 넣고 싶어."),
     ("좋은 생각이에요. '지난주 화요일 밤 → 11월 3일 18:00–04:00'처럼 보여 주면 결과를 믿기 쉬워요.")),
    (("비 온대. 달리기는 쉬고 대신 뭐 하지?"),
     ("실내 스트레칭 20분하고, 그 시간에 밀린 드래프트 리뷰를 해 보는 건 어때요? 리뷰 큐에 네 개가 기다리고 있어요."),
     ("좋아. 드래프트 리뷰하고 점심 먹자."),
     ("리뷰 끝나면 승인한 것만 확정하세요. 확정은 되돌릴 수 없으니까요.")),
    (("오늘 저녁에 케이트랑 통화하기로 했어. 하쿠바 얘기할 거야."),
     ("통화 전에 료칸 후보 두 곳 가격이랑 기차 시간 정리해 둘게요. 2월 14일부터 16일 기준으로요."),
     ("고마워. 기차표는 케이트가 내기로 했어."),
     ("메모해 둘게요: 기차는 케이트, 숙소는 당신.")),
    (("아침부터 머리가 복잡해. 해야 할 일이 너무 많아."),
     ("하나씩 꺼내 볼까요? 지금 떠오르는 걸 다 적어 주시면 급한 것과 중요한 것으로 나눠 드릴게요."),
     ("치과, 엄마 선물, 검색 화면, 일본어 메일, 세탁기 수리."),
     ("급한 것: 세탁기 수리 예약, 치과. 중요한 것: 검색 화면. 나머지는 이번 주 안에만 하면 돼요.")),
    (("오늘은 오후에 반차야. 오전에 뭐부터 할까?"),
     ("오전에는 코드 리뷰 두 건을 먼저 끝내고, 남는 시간에 일본어 메일 초안을 써 두면 오후가 가벼워져요."),
     ("반차 때는 한강 가서 자전거 탈 거야."),
     ("좋아요! 오후 3시 이후 일정은 비워 둘게요.")),
    (("어제 만든 스냅샷 테스트가 오늘 아침에 깨졌어."),
     ("시계가 고정되지 않았을 가능성이 커요. 'n일 전' 같은 표시가 날짜에 따라 바뀌거든요. 테스트에서 시계를 고정했는지 "
      "먼저 확인해 보세요."),
     ("맞다, 시계 고정하는 걸 빼먹었어."),
     ("그럼 고정하고 스냅샷을 다시 만들면 돼요. 다시 만들기 전에 SVG를 꼭 눈으로 확인하세요.")),
    (("이번 달 지출 정리하고 싶어. 오늘 저녁에 30분만."),
     ("저녁 9시에 30분 잡을게요. 카드 내역은 미리 내려받아 두면 빨라요."),
     ("알겠어."),
     ("참, 하쿠바 료칸 예약금도 이번 달에 들어가니까 잊지 마세요.")),
)

CODING = (  # English evenings with Claude on the project
    chat("claude", "day-logs",
         me("For the lossless log: one JSONL file per UTC day, or per local day? I live in Seoul but I travel."),
         ai("Per UTC day. A local day moves when you travel and with DST; a UTC day never does, and the index can "
            "still answer local-day questions because it converts ranges with your timezone at query time."),
         me("And a line per turn with ts, actor, role, type, text, model, session."),
         ai("Plus source and a stable id, so importing the same export twice adds nothing. I'd also keep the "
            "text exactly as it came: no trimming, no summaries."),
         me("Never summarized. That's the whole point of the project.")),
    chat("claude", "cjk-tokens",
         me("FTS5 doesn't find 서울숲 inside 서울숲에서. The unicode61 tokenizer treats the whole thing as one token."),
         ai("Index Hangul, kana and kanji as overlapping character bigrams, like Lucene's CJK analyzer: 서울숲에서 "
            "becomes 서울, 울숲, 숲에, 에서. A query for 서울숲 then matches 서울 and 울숲 in the same row."),
         me("What about two-character words like 산책 or 会議?"),
         ai("A two-character word is exactly one bigram, so 산책 matches 산책했다 and 会議 matches 会議で. Single "
            "characters need a prefix query; I'd add that only for one-character queries."),
         tool("pytest tests/test_index_tokenize.py: 31 passed in 0.42s"),
         me("All green. Nice.")),
    chat("claude", "timeparse-night",
         me("What range should 'last Tuesday night' be? Tuesday 18:00 to midnight feels wrong for chats at 1 am."),
         ai("Night as 18:00 to 04:00 the next morning matches how people talk: a chat at 1:30 am on Wednesday is "
            "still 'Tuesday night' to you. Keep the boundaries in one table so every language shares them."),
         me("And 어젯밤 / 昨夜?"),
         ai("Same rule: yesterday's night, 18:00 yesterday to 04:00 today. I'd test all three languages against "
            "one table of cases with a fixed now.")),
    chat("claude", "false-positives",
         me("The parser thinks 'we' is Wednesday and 'may I' is May."),
         ai("Guard them: weekday abbreviations only with a word boundary and never 'we'; month names only next to "
            "a number, 'in', 'last' or 'this'. 'The march of progress' and 'second thoughts' go in the test table."),
         me("Add 'sat down' too. Someone will write that."),
         ai("Added: 'sat down with Kate' must not become Saturday.")),
    chat("claude", "review-queue",
         me("The review queue should make it obvious which suggestions came from which model."),
         ai("Show source, model and process version on every suggestion, and the confidence. An approved draft "
            "should list who accepted what, derived from the timestamps already in the draft."),
         me("And nothing becomes a memory until I approve and finalize it."),
         ai("Right: accept or reject each suggestion, approve the draft, then finalize once. Finalizing seals it; "
            "a finalized draft can't be replaced.")),
    chat("claude", "snapshot-tests",
         me("Snapshot tests keep failing on CI but not here."),
         ai("Three usual suspects: the clock (ages like '3d' change daily), random ids, and cursor blink. Freeze "
            "the clock, derive ids from draft ids, and turn blinking off in the test config."),
         tool("pytest tests/test_tui_snapshots.py: 13 passed in 21.7s"),
         me("That was the clock. Frozen now.")),
    chat("claude", "ssh-keys",
         me("Which keys are safe over SSH and tmux? ctrl+s froze my terminal once."),
         ai("Letters, F-keys, arrows, Enter, Esc and most ctrl letters. Avoid ctrl+s and ctrl+q unless flow "
            "control is off, ctrl+b in tmux, and anything with alt or shift+arrows, which some terminals drop."),
         me("So F2–F6 for sections and letters inside screens."),
         ai("Yes, and show every key in the footer so nobody needs a mouse.")),
    chat("claude", "curation-rubric",
         me("For curation: which signals should move a memory to cold storage automatically?"),
         ai("Only high-confidence ones: superseded by a newer memory, or expired with a date in the past. "
            "Anything about preferences, corrections or identity is guarded and waits for you, whatever the "
            "signals say."),
         me("And nothing is ever deleted."),
         ai("Moved, with a checksum and a tombstone, and restorable byte for byte. A restore also teaches the "
            "rubric that it was wrong.")),
    chat("claude", "importer-chatgpt",
         me("The ChatGPT export has branches. Which one do we keep?"),
         ai("The visible thread from current_node becomes the main session, and every other branch becomes its "
            "own session, so nothing is dropped. Null timestamps inherit from the parent message."),
         tool("reverie ingest ~/Downloads/conversations.json: 1,284 turns added, 0 quarantined"),
         me("1,284 turns. And re-importing adds zero?"),
         ai("Zero: the ids are stable.")),
    chat("claude", "dedup",
         me("I captured the same thing twice last week: 'Kate pays the train'."),
         ai("A duplicate check at capture time would catch it: compare the new memory with confirmed ones and show "
            "anything at cosine 0.95 or above, then let you replace, keep both or cancel."),
         me("Let me choose. Never merge silently."),
         ai("Never silently: the choice is always yours.")),
    chat("claude", "search-screen",
         me("Sketch the search screen for 80x24."),
         ai("Query on top; under it one line saying how the time words were understood, like 'last Tuesday night "
            "→ Tue 3 Nov 18:00 – Wed 4 Nov 04:00', then the mode used. Results below with time, speaker, kind "
            "and text; Enter opens the turns around the hit."),
         me("Search as I type?"),
         ai("After a short pause in typing, so a slow SSH link doesn't redraw on every key.")),
    chat("claude", "embedding-load",
         me("Importing sentence_transformers takes five seconds. The app can't start like that."),
         ai("Load it lazily, in a worker, the first time semantic search is actually needed. Exact search needs "
            "no model at all, so most sessions never pay for it."),
         me("And tests?"),
         ai("Tests that don't need the model must not load it; the ones that do use the packaged MiniLM so "
            "nothing is downloaded.")),
    chat("claude", "ledger",
         me("How do I know nobody edited a memory file behind my back?"),
         ai("Each record carries an HMAC over its canonical JSON, and the ledger chains the record hashes. "
            "verify recomputes everything and names each record that was modified, removed or reordered."),
         me("Print the ledger head so I can keep it on my phone."),
         ai("verify --checkpoint prints it; comparing later catches a rollback too.")),
    chat("claude", "context-block",
         me("What goes into the context block for a model prompt?"),
         ai("The latest topic markers first, then relevant confirmed memories marked as reviewed, then matching "
            "turns, all within the token budget. Long items get cut; markers never do."),
         me("Markers are my words only. Assistants read them, never write them."),
         ai("Agreed. The MCP tools can read markers and propose drafts, nothing more.")),
    chat("claude", "watch",
         me("Can `reverie watch` run while the TUI is open?"),
         ai("Yes: the index is SQLite in WAL mode, reindex takes a file lock, and readers never wait for the "
            "writer. The TUI sees new turns on its next search."),
         me("Good. I'll keep watch running in a tmux pane.")),
    chat("claude", "memories-screen",
         me("On the memories screen, how do I tell reviewed from unreviewed at a glance?"),
         ai("A badge per row: '✓ reviewed' in green for memories that went through review, a dim '· unreviewed' "
            "for ones stored directly. Next to it, whether the record still verifies against the ledger."),
         me("And the provenance on Enter."),
         ai("Every suggestion with its source, model, process version and confidence, and what you decided.")),
)

JAPANESE = (  # Japanese practice and errands with a local model
    chat("llama", "nihongo-meeting",
         me("今日は日本語で話したい。明日の会議の準備を手伝って。"),
         ai("もちろんです。会議の目的は何ですか？"),
         me("新しいプロジェクトのスケジュールを佐藤さんと決めること。"),
         ai("では、最初に締め切り、次に中間レビューの日程、最後に担当を確認しましょう。")),
    chat("llama", "nihongo-keigo",
         me("「確認します」をもっと丁寧に言うと？"),
         ai("「確認いたします」や「確認させていただきます」が丁寧です。メールなら「確認の上、ご連絡いたします」も"
            "よく使います。"),
         me("「確認の上、ご連絡いたします」、使ってみる。")),
    chat("llama", "nihongo-ryokan",
         me("白馬の旅館に予約のメールを書きたい。2月14日から2泊、2人。"),
         ai("「2月14日から2泊、大人2名で予約をお願いしたく、ご連絡いたしました。温泉付きのお部屋は空いておりますで"
            "しょうか。」はいかがですか。"),
         me("いいね。夕食付きでお願いしたい。"),
         ai("最後に「夕食付きのプランを希望いたします。」と加えましょう。")),
    chat("llama", "nihongo-weather",
         me("今日はすごく寒かった。朝、走ったら手が冷たくなった。"),
         ai("「手がかじかんだ」と言うと自然です。手袋をしたほうがいいですね。"),
         me("手がかじかんだ。覚えた。")),
    chat("llama", "nihongo-review",
         me("「振り返り」と「レビュー」はどう違う？"),
         ai("「振り返り」は自分の行動を思い返すこと、「レビュー」は内容を確認して評価することが多いです。週末の"
            "振り返り、コードレビュー、という感じです。"),
         me("じゃあ日曜日の夜は振り返りとレビュー、両方だね。")),
    chat("llama", "nihongo-book",
         me("ケイトに勧められた本を読み始めた。The Overstory。日本語で何て言う？"),
         ai("日本語版のタイトルは『オーバーストーリー』です。木と人の物語ですね。"),
         me("真ん中あたりが一番いいって言われた。")),
    chat("llama", "nihongo-deadline",
         me("「締め切りに間に合う」と「締め切りを守る」の違いは？"),
         ai("「間に合う」は時間内に終わること、「守る」は約束として締め切りを破らないことに重点があります。"),
         me("3月末の締め切りは絶対に守る。")),
    chat("llama", "nihongo-search",
         me("「先週の火曜日の夜」と「この前の火曜日の夜」は同じ？"),
         ai("ほとんど同じですが、「先週の火曜日」は先週の月曜日から日曜日までの週の火曜日をはっきり指します。"),
         me("なるほど。検索でもその違いを守らないと。")),
    chat("llama", "nihongo-onsen",
         me("温泉で気をつけるマナーを教えて。"),
         ai("体を洗ってから湯船に入ること、タオルを湯船に入れないこと、大きな声で話さないことが基本です。"),
         me("ケイトにも伝えておく。")),
)

ERRANDS = (  # short midday and weekend questions, in whichever language came first
    chat("chatgpt", "recipe",
         me("냉장고에 두부, 애호박, 달걀 있어. 점심 뭐 해 먹지?"),
         ai("애호박 두부 달걀볶음 어때요? 10분이면 되고, 간장 한 숟가락이랑 참기름으로 간하면 돼요.")),
    chat("chatgpt", "washing-machine",
         me("The washing machine shows error 4E. What does that mean?"),
         ai("On most Samsung machines 4E means a water supply problem: check that the tap is open and the inlet "
            "filter isn't clogged. If both are fine, the inlet valve may need a technician."),
         me("The tap was half closed. Embarrassing. Thanks.")),
    chat("chatgpt", "gift",
         me("엄마 생신 선물로 제주 여행 말고 하나 더 준비하고 싶어. 5만 원 안쪽으로."),
         ai("여행 사진을 모아 작은 포토북을 만들면 어때요? 여행 다녀온 뒤에 주문하면 딱 맞아요."),
         me("좋다. 협재 사진으로 만들어야지.")),
    chat("chatgpt", "translate",
         me("How do I say 'thank you for your patience' politely in Japanese, for an email?"),
         ai("「お待たせしてしまい、申し訳ございません」 or, warmer, 「ご辛抱いただき、ありがとうございます」. In a "
            "business email the first is more common.")),
    chat("chatgpt", "bike",
         me("한강 자전거 대여 몇 시까지 해?"),
         ai("따릉이는 24시간 대여할 수 있어요. 반납은 한강공원 안 대여소 아무 데나 가능해요.")),
    chat("chatgpt", "coffee",
         me("Third coffee today. Tell me to stop."),
         ai("Stop. Have water and a short walk instead; you said you sleep badly after coffee past 3 pm."),
         me("Fine. Walking.")),
    chat("chatgpt", "train",
         me("東京から白馬まで、一番早い行き方は？"),
         ai("北陸新幹線で長野まで約1時間20分、そこから特急バスで白馬まで約1時間です。"),
         me("ケイトに送っておく。")),
    chat("chatgpt", "plants",
         me("The basil on the balcony is wilting even though I water it every day."),
         ai("Daily watering is probably too much: basil likes the soil to dry a little between waterings. Water "
            "when the top two centimetres are dry, and give it morning sun.")),
    chat("chatgpt", "laundry",
         me("웨트슈트 빨래는 어떻게 해? 대여한 건 아니고 엄마 거 새로 샀어."),
         ai("미지근한 물에 헹구고, 뒤집어서 그늘에 말리세요. 세탁기와 건조기는 안 돼요.")),
    chat("chatgpt", "haircut",
         me("Book a haircut reminder for next Saturday morning."),
         ai("Noted: haircut, Saturday 10:00. I'll mention it in Friday's plan.")),
    chat("chatgpt", "umbrella",
         me("오늘 오후에 비 와?"),
         ai("오후 4시쯤부터 비 소식이 있어요. 우산 챙기세요.")),
    chat("chatgpt", "insurance",
         me("What do I need to bring to the dentist for the insurance claim?"),
         ai("Your insurance card and, for the claim, the itemised receipt. Ask them for the treatment codes too; "
            "the insurer asks for them.")),
)

RUN_NOTES = (
    "easy pace, legs felt fresh", "windy along the Han river", "new shoes, knees fine", "hills in Seoul Forest",
    "tempo in the middle 3 km", "cold, gloves next time", "slow, slept badly", "long run, kept it conversational",
    "intervals 6×400 m", "rain at the end", "with Mina for the first half", "easy recovery run",
)

# --- one-off chats (days ago, Seoul time) ---------------------------------------------------------------

ONE_OFFS: tuple[tuple[int, str, Chat], ...] = (
    (70, "22:10", chat(
        "claude", "principle",
        me("Before we write any code: the log is never summarized. Every turn kept exactly as it was said."),
        ai("Then summaries can only ever be derived views, rebuildable from the log, never stored in place of it. "
           "I'd write that into the design as the first rule after 'AI suggests, the person confirms'."),
        me("Yes. Write it down."),
    )),
    (51, "19:30", chat(
        "chatgpt", "mina-birthday",
        me("미나 생일 저녁 어디서 할까? 망원동 쪽이면 좋겠어."),
        ai("망원동의 작은 제주 흑돼지 집 어때요? 미나 씨가 흑돼지 좋아한다고 하셨잖아요. "
           "6시 반에 네 명 예약 가능해요."),
        me("거기로 하자. 케이크는 내가 가져갈게."),
    )),
    (13, "20:40", chat(
        "chatgpt", "kate-ski",
        me("Kate just texted: the skiing trip is off this year, her knee still isn't right."),
        ai("Sorry to hear that. Would a quieter trip work instead? Hakuba has good onsen ryokan, and February is "
           "beautiful there even without skiing."),
        me("An onsen weekend in Hakuba in February, instead of skiing. I'll suggest it."),
        ai("Mid-February weekends fill up early. Want me to list three ryokan near the station?"),
        me("Yes please, with prices."),
    )),
    (12, "21:15", chat(
        "chatgpt", "hakuba-plan",
        me("Kate said yes to Hakuba! 14 to 16 February. She pays the train, I book the ryokan."),
        ai("Great. The Shinkansen to Nagano and the bus to Hakuba take about three and a half hours from Tokyo. "
           "I'll draft the booking email to the ryokan in Japanese when you pick one."),
    )),
    (10, "09:20", chat(
        "chatgpt", "jeju-plan",
        me("이번 주 토요일에 엄마랑 제주 협재 해변 가. 엄마가 스노클링을 처음 해 보신대."),
        ai("협재는 물이 얕고 맑아서 처음 하기 좋아요. 11월이라 물이 차니까 3mm 웨트슈트를 빌리시고, 오전 11시쯤 물때가 "
           "좋아요."),
        me("웨트슈트 빌리는 곳도 찾아 줘."),
        ai("해변 앞 대여점 두 곳이 있어요. 둘 다 구명조끼 포함, 하루 2만 원 정도예요."),
    )),
    (8, "20:30", chat(
        "chatgpt", "jeju-recap",
        me("제주 다녀왔어! 엄마가 스노클링 하면서 계속 웃으셨어. 물은 생각보다 차가웠고."),
        ai("정말 좋은 하루였네요. 오늘 일을 기억으로 남겨 둘까요? 드래프트로 만들어 두면 나중에 "
           "확인하고 확정할 수 있어요."),
        me("응, 드래프트로 남겨 줘. 사진 위치도 붙여서."),
    )),
    (3, "22:00", chat(
        "chatgpt", "overstory",
        me("Kate recommended The Overstory. She says the middle third is the best part, don't give up before it."),
        ai("It's long, about 500 pages, and the first part is a set of separate stories before the characters meet. "
           "That might be why she warned you."),
        me("Noted. I'll push through the first part."),
    )),
    (1, "11:05", chat(
        "chatgpt", "dentist",
        me("The dentist moved my appointment to the 18th at 9:30."),
        ai("Updated. Bring the old x-rays and your insurance card; they asked for both last time."),
        me("Thanks, I'd have forgotten the x-rays."),
    )),
    (0, "08:10", chat(
        "claude", "search-polish",
        me("Today: polish the search screen. Filters for tags, role and session, and a mode switch."),
        ai("Keep filters on single keys in the results and one filter bar for all three; the mode cycles "
           "auto, exact, semantic, hybrid. And always say which mode produced the results."),
        me("And say when semantic was only a fallback."),
    )),
)

MARKERS = (  # (days ago, Seoul time, the person's words)
    (70, "22:30", "Reverie begins: the log keeps every turn, never summarized"),
    (26, "21:50", "Lossless log done; temporal backbone next (en/ko/ja)"),
    (19, "22:05", "타임파서 끝. 다음은 검색 인덱스"),
    (12, "21:40", "Ski trip off; Hakuba onsen weekend with Kate instead (14–16 Feb)"),
    (5, "21:00", "締め切りは3月末。佐藤さんに確認済み"),
    (2, "22:20", "Search screen in progress; curation screens next"),
)
# fmt: on


# --- when things happen ------------------------------------------------------------------------------


HEADLINES = {"en": "last Tuesday night", "ko": "지난주 화요일 밤", "ja": "先週の火曜日の夜"}
DECISION_LANGUAGES = ("en", "ko", "ja")  # the language of each chat in DECISION_NIGHT
FIRST_CHAT_AFTER = timedelta(minutes=25)  # the first decision chat starts this long into its night
BETWEEN_CHATS = timedelta(minutes=35)


def decision_nights(now: datetime, zone: tzinfo) -> dict[str, tuple[datetime, datetime]]:
    """For each language, the night its "last Tuesday night" names at ``now`` in ``zone``, as UTC
    datetimes ``[start, end)``."""
    nights: dict[str, tuple[datetime, datetime]] = {}
    for language, words in HEADLINES.items():
        found = parse_time(words, now.astimezone(zone), zone).range
        if found is None:
            raise ValueError(f"the temporal backbone did not understand {words!r}")
        nights[language] = (found.start.astimezone(UTC), found.end.astimezone(UTC))
    return nights


def decision_chats(now: datetime, zone: tzinfo) -> list[tuple[datetime, Chat]]:
    """The three decision chats with their start times (UTC): each on the night its language names,
    one after the other early in that night."""
    nights = decision_nights(now, zone)
    placed: list[tuple[datetime, Chat]] = []
    taken: dict[tuple[datetime, datetime], int] = {}
    for language, item in zip(DECISION_LANGUAGES, DECISION_NIGHT, strict=True):
        night = nights[language]
        position = taken.get(night, 0)
        taken[night] = position + 1
        placed.append((night[0] + FIRST_CHAT_AFTER + position * BETWEEN_CHATS, item))
    return placed


def seoul_time(now: datetime, days_ago: int, clock: str) -> datetime:
    hour, minute = (int(part) for part in clock.split(":"))
    day = now.astimezone(SEOUL).date() - timedelta(days=days_ago)
    return datetime.combine(day, time(hour, minute), SEOUL).astimezone(UTC)


def run_chat(day: date, index: int) -> Chat:
    km = 5 + (index * 7) % 9 / 2 if day.weekday() != 6 else 14 + index % 4
    pace = f"5:{(index * 13) % 40 + 10:02d}"
    note = RUN_NOTES[index % len(RUN_NOTES)]
    reply = (
        "Logged. That's a solid week so far."
        if km < 12
        else "Logged: long run done. Stretch, eat something with protein, and enjoy the evening."
    )
    return chat("chatgpt", "run-log", me(f"Ran {km:g} km at {pace}/km, {note}."), ai(reply))


def schedule(now: datetime, zone: tzinfo) -> list[tuple[datetime, Chat]]:
    """Every chat with its start time (UTC), oldest first; nothing after ``now``; the decision nights
    (in ``zone``, the person's timezone) hold the decision chats only."""
    planned: list[tuple[datetime, Chat]] = []
    today = now.astimezone(SEOUL).date()
    counters = {"morning": 0, "coding": 0, "japanese": 0, "run": 0, "errand": 0}
    for days_ago in range(HISTORY_DAYS - 1, -1, -1):
        day = today - timedelta(days=days_ago)
        weekday = day.weekday()
        if weekday == 6 or (days_ago < BUSY_DAYS and weekday in (1, 3)):  # long runs on Sundays
            planned.append((seoul_time(now, days_ago, "06:40"), run_chat(day, counters["run"])))
            counters["run"] += 1
        if days_ago >= BUSY_DAYS:
            continue
        if weekday in (0, 2, 4):
            turns = MORNINGS[counters["morning"] % len(MORNINGS)]
            counters["morning"] += 1
            planned.append((seoul_time(now, days_ago, "07:45"), chat("chatgpt", "today", *alternate(turns))))
        if weekday != 5 and days_ago % 7 != 3:
            planned.append((seoul_time(now, days_ago, "21:10"), CODING[counters["coding"] % len(CODING)]))
            counters["coding"] += 1
        if weekday in (1, 3, 5):
            clock = "15:00" if weekday == 5 else "12:30"
            planned.append((seoul_time(now, days_ago, clock), ERRANDS[counters["errand"] % len(ERRANDS)]))
            counters["errand"] += 1
        if days_ago % 3 == 1:
            planned.append((seoul_time(now, days_ago, "22:40"), JAPANESE[counters["japanese"] % len(JAPANESE)]))
            counters["japanese"] += 1
    planned += [(seoul_time(now, days, clock), one_off) for days, clock, one_off in ONE_OFFS]
    nights = set(decision_nights(now, zone).values())
    planned = [(when, c) for when, c in planned if not any(start <= when < end for start, end in nights)]
    planned += decision_chats(now, zone)
    return sorted((when, c) for when, c in planned if when < now)


def alternate(texts: Sequence[str]) -> list[tuple[str, str]]:
    """The person first, then the assistant, and so on."""
    return [me(text) if i % 2 == 0 else ai(text) for i, text in enumerate(texts)]


def records(start: datetime, item: Chat, now: datetime) -> Iterator[dict[str, str]]:
    """One chat as generic-JSONL records, with plausible gaps (typing, thinking) between turns."""
    moment = start
    session = f"{item.assistant}-{item.slug}-{start.astimezone(SEOUL):%m%d}"
    for speaker, text in item.turns:
        if moment >= now:
            return
        record = {"ts": format_ts(moment), "text": text, "session": session}
        if speaker == PERSON:
            record |= {"role": "user", "actor": PERSON}
            moment += timedelta(seconds=25 + len(text) // 3)
        else:
            record |= {"role": "assistant", "actor": item.assistant, "model": MODELS[item.assistant]}
            if speaker == "tool":
                record["type"] = "action"
            moment += timedelta(seconds=10 + len(text) // 12)
        yield record


def write_conversations(ctx: DemoContext) -> None:
    """The demo step: chats through the real ingest, topic markers, then the exact index and memories."""
    zone = load_config(ctx.paths.config).zone()
    planned = schedule(ctx.now, zone)
    with tempfile.TemporaryDirectory(prefix="reverie-demo-chats-") as folder:
        source = Path(folder) / "demo-chats.jsonl"
        with source.open("w", encoding="utf-8") as out:
            for start, item in planned:
                for record in records(start, item, ctx.now):
                    out.write(json.dumps(record, ensure_ascii=False) + "\n")
        # Unsealed: sealing signs one ledger entry per closed day (fsyncs that would slow every test that
        # builds a demo home); `reverie seal` with the demo passphrase seals them.
        report = ingest(ctx.paths, [source], "generic", unsealed_reason="demo home", now=ctx.now)
    for days_ago, clock, text in MARKERS:
        add_marker(ctx.paths, text, now=seoul_time(ctx.now, days_ago, clock))
    with (
        SearchIndex.open(ctx.paths) as index,
        Reindexer(index, HomeDayLogs(ctx.paths), memory_source=lambda: vault_docs(ctx.vault, zone)) as reindexer,
    ):
        reindexer.run(embed=False)
    sessions = len(planned)
    ctx.notes.append(
        f"{report.added} conversation turns in {sessions} chats over {HISTORY_DAYS // 7} weeks (en, ko, ja), "
        f"{len(MARKERS)} topic markers, exact index built (vectors for semantic search: the app builds them when "
        "you first search by meaning there; from the shell, `reverie reindex`)"
    )
