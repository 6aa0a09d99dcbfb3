"""Stylesheets through tinycss2: rules, declarations and their positions in the HTML file.

Also a deliberately small selector matcher: rules need "does this CSS rule style that element?", and only the
rightmost compound selector (`#id`, `.a.b`, `tag`, `[attr="v"]`) decides that well enough for lint purposes.
"""

from __future__ import annotations

from skillbox.lint import patterns as rx
from skillbox.lint.css_library import load as _load_tinycss2
from skillbox.lint.patterns import lazy_compile
from skillbox.lint.records import dataclass, field

tinycss2 = _load_tinycss2()  # the parser without the byte-decoding half (see css_library.py)


@dataclass
class Declaration:
    name: str  # lower-case property name
    value: str
    important: bool
    offset: int  # byte offset in the HTML file (approximate to the token for multi-byte text)


@dataclass
class CssRule:
    selector: str
    declarations: list[Declaration]
    offset: int
    media: str | None = None


@dataclass
class Stylesheet:
    rules: list[CssRule] = field(default_factory=list)
    font_faces: list[str] = field(default_factory=list)  # declared font-family names (lower-case, unquoted)
    keyframes: list[str] = field(default_factory=list)
    errors: list[tuple[str, int]] = field(default_factory=list)
    custom_properties: set[str] = field(default_factory=set)
    urls: list[tuple[str, str, int]] = field(default_factory=list)  # (property or "@font-face", url, offset)


class _Positions:
    """Map tinycss2's (line, column) inside a text block to a byte offset in the HTML file."""

    def __init__(self, text: str, base: int):
        self.base = base
        self.line_starts = [0]
        encoded_len = 0
        self.lines = text.split("\n")
        for line in self.lines[:-1]:
            encoded_len += len(line.encode("utf-8", "surrogatepass")) + 1
            self.line_starts.append(encoded_len)

    def offset(self, line: int, column: int) -> int:
        index = max(0, min(line - 1, len(self.line_starts) - 1))
        prefix = self.lines[index][: max(0, column - 1)]
        return self.base + self.line_starts[index] + len(prefix.encode("utf-8", "surrogatepass"))


_URL = lazy_compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)""", needs=("url(",))
# Comments and strings, removed before braces are counted.
_COMMENT_OR_STRING = lazy_compile(
    r"/\*.*?(\*/|$)|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'", rx.DOTALL, needs=("/*", '"', "'")
)


def css_urls(value: str) -> list[str]:
    return [next(g for g in m.groups() if g is not None) for m in _URL.finditer(value)]


def _unquote(value: str) -> str:
    return value.strip().strip("'\"").strip()


def parse_declarations(text: str, base: int) -> list[Declaration]:
    """A `style="..."` attribute or a rule body."""
    positions = _Positions(text, base)
    return _declarations(tinycss2.parse_declaration_list(text, skip_comments=True, skip_whitespace=True), positions)


def _declarations(nodes, positions: _Positions, sheet: Stylesheet | None = None) -> list[Declaration]:
    out = []
    for node in nodes:
        if node.type == "declaration":
            value = tinycss2.serialize(node.value).strip()
            name = node.name if node.name.startswith("--") else node.lower_name
            if sheet is not None and name.startswith("--"):
                sheet.custom_properties.add(name)
            out.append(Declaration(name, value, node.important, positions.offset(node.source_line, node.source_column)))
        elif node.type == "error" and sheet is not None:
            sheet.errors.append((node.message, positions.offset(node.source_line, node.source_column)))
    return out


def parse_stylesheet(text: str, base: int) -> Stylesheet:
    sheet = Stylesheet()
    positions = _Positions(text, base)
    _rules(tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True), positions, sheet, None)
    _check_balance(text, positions, sheet)
    return sheet


def _rules(nodes, positions: _Positions, sheet: Stylesheet, media: str | None) -> None:
    for node in nodes:
        if node.type == "qualified-rule":
            selector = " ".join(tinycss2.serialize(node.prelude).split())
            body = tinycss2.parse_blocks_contents(node.content, skip_comments=True, skip_whitespace=True)
            declarations = _declarations(body, positions, sheet)
            for decl in declarations:
                if "url(" in decl.value:
                    sheet.urls.extend((decl.name, url, decl.offset) for url in css_urls(decl.value))
            offset = positions.offset(node.source_line, node.source_column)
            for part in _split_selector_list(selector):
                sheet.rules.append(CssRule(part, declarations, offset, media))
        elif node.type == "at-rule":
            name = node.lower_at_keyword
            if name == "font-face" and node.content is not None:
                body = tinycss2.parse_blocks_contents(node.content, skip_comments=True, skip_whitespace=True)
                for decl in _declarations(body, positions):
                    if decl.name == "font-family":
                        sheet.font_faces.append(_unquote(decl.value).lower())
                    elif decl.name == "src":
                        sheet.urls.extend(("@font-face", url, decl.offset) for url in css_urls(decl.value))
            elif name == "keyframes" or name.endswith("-keyframes"):
                sheet.keyframes.append(tinycss2.serialize(node.prelude).strip())
            elif name in ("media", "supports", "layer", "container") and node.content is not None:
                inner = tinycss2.parse_rule_list(node.content, skip_comments=True, skip_whitespace=True)
                _rules(inner, positions, sheet, tinycss2.serialize(node.prelude).strip())
        elif node.type == "error":
            sheet.errors.append((node.message, positions.offset(node.source_line, node.source_column)))


def _check_balance(text: str, positions: _Positions, sheet: Stylesheet) -> None:
    """tinycss2 silently closes unterminated blocks; a renderer's parser may drop them. Count braces outside
    strings and comments."""
    stripped = _COMMENT_OR_STRING.sub("", text)
    depth = 0
    for ch in stripped:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                sheet.errors.append(("unexpected '}'", positions.base))
                return
    if depth > 0:
        sheet.errors.append(("unclosed '{' block", positions.base))


def _split_selector_list(selector: str) -> list[str]:
    parts, depth, current = [], 0, []
    for ch in selector:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    parts.append("".join(current).strip())
    return [p for p in parts if p]


_COMPOUND = lazy_compile(
    r"(?P<tag>^[a-zA-Z][\w-]*|\*)|#(?P<id>[\w-]+|\\3\d [\w-]*)|\.(?P<cls>[\w-]+)"
    r"|\[(?P<attr>[\w-]+)(?:\s*(?P<op>[~|^$*]?=)\s*(?P<val>\"[^\"]*\"|'[^']*'|[^\]\s]+))?\s*\]|(?P<pseudo>::?[\w-]+(?:\([^)]*\))?)"
)


def last_compound(selector: str) -> str:
    depth, cut = 0, 0
    for i, ch in enumerate(selector):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0 and ch in " >+~":
            cut = i + 1
    return selector[cut:].strip()


def _is_word_or_dash(text: str) -> bool:
    """Every character matches `[\\w-]` (re's `\\w` on str: `str.isalnum()` or `_`)."""
    return all(c.isalnum() or c in "_-" for c in text)


def _simple_compound(compound: str) -> tuple[str, str] | None:
    """("#", id), (".", class) or ("tag", name) when the whole compound is one such simple selector, else None."""
    head, rest = compound[:1], compound[1:]
    if head in ("#", ".") and rest and _is_word_or_dash(rest):
        return head, rest
    if compound == "*" or (head.isascii() and head.isalpha() and _is_word_or_dash(rest)):
        return "tag", compound
    return None


def compound_matches(compound: str, tag: str, attrs: dict[str, str]) -> bool:
    """Does a compound selector such as `div.clip#a[data-x="1"]` match an element? Pseudo-classes are ignored."""
    if not compound:
        return False
    simple = _simple_compound(compound)
    if simple is not None:  # `#id`, `.class`, `tag`, `*`: what the loop below decides, without the pattern
        kind, value = simple
        if kind == "#":
            return attrs.get("id") == value
        if kind == ".":
            return value in attrs.get("class", "").split()
        return value == "*" or value.lower() == tag
    return _compound_matches_by_pattern(compound, tag, attrs)


def _compound_matches_by_pattern(compound: str, tag: str, attrs: dict[str, str]) -> bool:
    classes = set(attrs.get("class", "").split())
    pos = 0
    matched_something = False
    while pos < len(compound):
        m = _COMPOUND.match(compound, pos)
        if not m or m.end() == pos:
            return False
        pos = m.end()
        if m.group("tag"):
            if m.group("tag") != "*" and m.group("tag").lower() != tag:
                return False
            matched_something = True
        elif m.group("id"):
            if attrs.get("id") != m.group("id"):
                return False
            matched_something = True
        elif m.group("cls"):
            if m.group("cls") not in classes:
                return False
            matched_something = True
        elif m.group("attr"):
            name = m.group("attr").lower()
            if name not in attrs:
                return False
            if m.group("op"):
                want = m.group("val").strip("'\"")
                have = attrs[name]
                op = m.group("op")
                ok = {
                    "=": have == want,
                    "~=": want in have.split(),
                    "|=": have == want or have.startswith(want + "-"),
                    "^=": have.startswith(want),
                    "$=": have.endswith(want),
                    "*=": want in have,
                }[op]
                if not ok:
                    return False
            matched_something = True
        elif m.group("pseudo") and m.group("pseudo").startswith("::"):
            return False
    return matched_something


def selector_matches(selector: str, tag: str, attrs: dict[str, str], element=None) -> bool:
    """Rightmost compound against the element; with `element` (anything with .tag/.attrs/.parent) the descendant
    (` `) and child (`>`) parts are checked against its ancestors too, so `.headline span` does not match every
    span. Sibling combinators (`+`, `~`) are not checked (treated as matching)."""
    if element is None or not any(ch in selector for ch in " >"):
        return compound_matches(last_compound(selector), tag, attrs)
    parts = _compounds(selector)
    if not parts or not compound_matches(parts[-1][1], tag, attrs):
        return False
    return _match_left(parts, len(parts) - 1, element, set())


def _compounds(selector: str) -> list[tuple[str, str]]:
    """[(combinator before it, compound)], left to right; the first combinator is ""."""
    out: list[tuple[str, str]] = []
    depth, current, comb = 0, [], ""
    pending = ""
    for ch in selector.strip():
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if depth == 0 and ch in " >+~":
            if current:
                out.append((comb, "".join(current)))
                current, comb = [], ""
            pending = ch if ch != " " else (pending or " ")
            comb = pending if ch == " " else ch
            continue
        if not current:
            pending = ""
        current.append(ch)
    if current:
        out.append((comb, "".join(current)))
    return out


def _match_left(parts, index: int, element, failed: set) -> bool:
    """Match compounds [0, index) against the ancestors of `element`. `failed` memoises (index, node) pairs that
    cannot match, so deep trees and long descendant chains stay linear instead of exponential."""
    if index == 0:
        return True
    if (index, id(element)) in failed:
        return False
    comb = parts[index][0]
    compound = parts[index - 1][1]
    if comb in ("+", "~") or not rx.search(r"^[a-zA-Z*]|[#.\[]", compound):
        return _match_left(parts, index - 1, element, failed)  # siblings, `:root`, `:is()`: unchecked, permissive
    node = element.parent
    while node is not None:
        if compound_matches(compound, node.tag, node.attrs):
            if _match_left(parts, index - 1, node, failed):
                return True
            if comb == ">":
                break
        elif comb == ">":
            break
        node = node.parent
    failed.add((index, id(element)))
    return False


def font_families(value: str) -> list[str]:
    """The family names of a `font-family` value, lower-case and unquoted, through tinycss2's tokenizer.

    `var(--f, "Caveat", cursive)` yields the fallback families `caveat`, `cursive` (the custom property itself is
    resolved elsewhere or not at all); other functions (`env()`, `attr()`) name no family; `!important` is dropped.
    """
    return _families_of(tinycss2.parse_component_value_list(value, skip_comments=True))


def _families_of(tokens) -> list[str]:
    names: list[str] = []
    words: list[str] = []
    quoted: str | None = None

    def close() -> None:
        nonlocal quoted
        if quoted is not None:
            names.append(quoted.strip().lower())
        elif words:
            names.append(" ".join(words).lower())
        words.clear()
        quoted = None

    for tok in tokens:
        kind = tok.type
        if kind == "literal" and tok.value == ",":
            close()
        elif kind == "string":
            quoted = tok.value
        elif kind == "ident":
            words.append(tok.value)
        elif kind == "function" and tok.lower_name == "var":
            args = list(tok.arguments)
            comma = next((i for i, a in enumerate(args) if a.type == "literal" and a.value == ","), None)
            if comma is not None:
                names.extend(_families_of(args[comma + 1 :]))
        elif kind == "literal" and tok.value == "!":
            break
    close()
    return [n for n in names if n and n != "important"]


def var_names_without_fallback(value: str) -> list[str]:
    """Custom properties a value reads through `var(--x)` with no fallback; `var(--x, #f80)` falls back to
    `#f80` when --x is undefined, so it is not listed (its fallback is searched for nested var()s)."""
    return _vars_of(tinycss2.parse_component_value_list(value, skip_comments=True))


def _vars_of(tokens) -> list[str]:
    out: list[str] = []
    for tok in tokens:
        if tok.type != "function":
            continue
        args = list(tok.arguments)
        if tok.lower_name == "var":
            comma = next((i for i, a in enumerate(args) if a.type == "literal" and a.value == ","), None)
            name = next((a.value for a in args if a.type == "ident"), None)
            if comma is None and name and name.startswith("--"):
                out.append(name)
            elif comma is not None:
                out.extend(_vars_of(args[comma + 1 :]))
        else:
            out.extend(_vars_of(args))
    return out
