"""Words memory shows to people and agents, in English and Chinese: one table, one lookup.

`language` in settings.json is "en", "zh" or "auto" (the default): auto picks Chinese when most of the letters
in the project's recent prompts are CJK, so a user who works in Chinese gets Chinese headings without a setting.
Only the fixed wording changes; stored records stay as they were written. Standard library only (hook path).
"""

from __future__ import annotations

LANGUAGES = ("en", "zh")
MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "context.title": "# Memory: {project} (skillbox mem)",
        "context.intro1": "Earlier work in this project, newest last. Expand an entry with `skillbox mem get ID` "
        "(e.g. 12 or S3);",
        "context.intro2": 'find more with `skillbox mem search "words"` and `skillbox mem timeline ID`.',
        "context.reasons": "## Decisions and reasons",
        "context.fixes": "## Root causes and fixes",
        "context.next": "## Open next steps",
        "context.turns": "## Recent turns",
        "context.trail": "## Recent trail (#id date type title)",
        "file.heading": "Memory about {file} (skillbox mem; `skillbox mem get ID` for more):",
        "search.none": "No memory matches {query!r}.",
        "search.empty": "No memory yet.",
        "search.partial": "({full} matched every word; the {partial} marked (some words) matched only some)",
        "search.some": "(some words)",
        "search.only_partial": "(no record has every word; these match some)",
        "viewer.title": "skillbox memory",
        "viewer.search": "Search memory",
        "viewer.recent": "Recent observations",
        "viewer.sessions": "Sessions",
        "viewer.record": "Record",
        "viewer.empty": "Nothing here yet.",
        "observer.on": "observer on: {model}, at most {cap:,} tokens a day",
        "observer.off": "observer off",
    },
    "zh": {
        "context.title": "# 记忆：{project}（skillbox mem）",
        "context.intro1": "本项目之前的工作，最新的在最后。用 `skillbox mem get ID` 展开一条（例如 12 或 S3）；",
        "context.intro2": '用 `skillbox mem search "关键词"` 和 `skillbox mem timeline ID` 查找更多。',
        "context.reasons": "## 决策与理由",
        "context.fixes": "## 根因与修复",
        "context.next": "## 待办的下一步",
        "context.turns": "## 最近的对话轮次",
        "context.trail": "## 最近的操作记录（#编号 日期 类型 标题）",
        "file.heading": "关于 {file} 的记忆（skillbox mem；用 `skillbox mem get ID` 查看详情）：",
        "search.none": "没有与 {query!r} 匹配的记忆。",
        "search.empty": "还没有记忆。",
        "search.partial": "（{full} 条包含所有关键词；标有（部分关键词）的 {partial} 条只包含部分关键词）",
        "search.some": "（部分关键词）",
        "search.only_partial": "（没有记录包含所有关键词；以下记录包含部分关键词）",
        "viewer.title": "skillbox 记忆",
        "viewer.search": "搜索记忆",
        "viewer.recent": "最近的观察",
        "viewer.sessions": "会话",
        "viewer.record": "记录",
        "viewer.empty": "这里还没有内容。",
        "observer.on": "观察者已开启：{model}，每天最多 {cap:,} 个 token",
        "observer.off": "观察者已关闭",
    },
}


def message(language: str, key: str, **values) -> str:
    table = MESSAGES.get(language) or MESSAGES["en"]
    text = table.get(key) or MESSAGES["en"][key]
    return text.format(**values) if values else text


def is_mostly_cjk(text: str) -> bool:
    """True when at least 30% of the letters are CJK ideographs or kana (Chinese rarely needs many)."""
    cjk = letters = 0
    for char in text:
        if char.isalpha():
            letters += 1
            code = ord(char)
            if 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0x3040 <= code <= 0x30FF:
                cjk += 1
    return letters > 0 and cjk / letters >= 0.3


def detect_language(store, project: str | None, settings) -> str:
    """The language to speak: the setting when it names one, else what the project's recent prompts are in."""
    chosen = str(getattr(settings, "language", "auto") or "auto").lower()
    if chosen in LANGUAGES:
        return chosen
    if store is None:
        return "en"
    sql = "SELECT p.prompt_text FROM prompts p JOIN sessions s ON s.session_id = p.session_id WHERE p.private = 0"
    params: tuple = ()
    if project:
        sql += " AND s.project = ?"
        params = (project,)
    rows = store.conn.execute(sql + " ORDER BY p.id DESC LIMIT 10", params).fetchall()
    text = " ".join(row[0] or "" for row in rows)
    return "zh" if is_mostly_cjk(text) else "en"
