"""A secret that belongs to a story, not to the speaker (round 20 of issue 32).

"In the thriller I'm reading, the smuggler's passphrase is 'blue heron'", 电影里那个特工的
接头暗号是“月亮很圆”, ドラマで犯人が使っていた暗証番号は0815だった: the credential word and
its value are there, and every prose detector reads them, but the secret is a character's
in a work of fiction, which opens nothing of the user's. This module reads the span one of
the detectors found and says it is told in a story when:

- **a work is named as the frame** in the same stretch of the sentence: a medium of
  fiction (novel, film, series, comic, video game …; 小说, 电影, 剧, 漫画; 小説, ドラマ;
  소설, 드라마 — the closed class of kinds of work) that ends its noun phrase ("in the
  novel,", "the movie the guy types …", 小说里, 剧中, ドラマで, 드라마에서), not a noun
  modifying another ("game password", "movie theatre", 游戏账号: a compound names a real
  thing with a real secret);
- **no first person** stands between the frame and the value, outside quotation marks
  and outside a clause saying the speaker reads or watches the work ("the thriller I'm
  reading"): "In the game, my PIN is 8802" is the user's own;
- **no contrast or sentence end** lies between them: "… the spy's password is 'heron';
  mine is Gr4nite!River" and "…, but my real code is 6614" leave the story.

Only spans of prose detectors are read (``secrets.secret_spans``): a key of a known format
or a token with every character class is refused in any frame.

The media, the pronouns and the contrast words are closed classes, not sentences.
"""

from __future__ import annotations

import re

# Kinds of work of fiction (not "show"/"play"/"game" alone: events one attends, with real
# wifi and real door codes).
_MEDIUM_EN = (
    r"(?:novel(?:la)?s?|books?|stor(?:y|ies)|thrillers?|myster(?:y|ies)|whodunn?its?|"
    r"films?|movies?|(?:tv\s+|television\s+|web\s+)?series|episodes?|sitcoms?|dramas?|"
    r"screenplays?|comics?|comic\s+books?|graphic\s+novels?|manga|anime|cartoons?|"
    r"fairy\s*tales?|(?:video|computer|mobile|board|puzzle|adventure|role-?playing)\s+games?)"
)
# What may follow a work that ends its noun phrase: punctuation, a function word, an adverb
# in -ly, or a verb the work itself does ("the book has", "the game makes you").
_NP_END_EN = (
    r"(?=\s*(?:[,.:;!?)\"”’—–]|$)|\s+(?:the|a|an|this|that|these|those|he|she|they|it|his|her|"
    r"their|its|i|i'm|i've|we|we're|you|where|when|which|who|whose|there|someone|somebody|"
    r"everyone|one|[a-z]+ly|has|had|is|was|were|are|makes?|made|lets?|gives?|gave|shows?|"
    r"showed|starts?|opens?|ends?|begins?|features?|reveals?|revealed|says?|said)\b)"
)
_FRAME_EN = re.compile(rf"(?i:\b{_MEDIUM_EN}(?:['’]s\b|{_NP_END_EN}))")
_MEDIUM_CJK = (
    r"(?:小说|小說|电影|電影|电视剧|電視劇|连续剧|連續劇|网剧|網劇|短剧|短劇|美剧|美劇|韩剧|韓劇|"
    r"日剧|日劇|动画片?|動畫片?|动漫|動漫|漫画|漫畫|童话|童話|故事书|故事書|剧|劇|"
    r"小説|ドラマ|映画|マンガ|アニメ|ゲーム|物語|소설|드라마|영화|만화|애니|웹툰|게임)"
)
# A work as the frame: inside it (里, 中, で, 에서), or its own thing (小说的谜底) — never the
# credential word straight after it (游戏的密码 is an account's).
_FRAME_CJK = re.compile(
    rf"{_MEDIUM_CJK}(?:里面|裡面|里|裡|中|内|內|では|で|の中|に出てくる|에서는|에서|에선|속)"
    rf"|{_MEDIUM_CJK}(?:的|の|의)(?!\s*(?:密码|密碼|口令|账号|帳號|账户|帳戶|暗号|暗號|"
    r"パスワード|暗証|アカウント|비밀번호|계정))"
    # a video game is a game one plays in: 游戏里, 遊戲中 (游戏密码 is an account's)
    r"|(?:游戏|遊戲)(?:里面|裡面|里|裡|中)"
)
_FIRST_PERSON = re.compile(
    r"(?i:\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|our|ours|us)\b)"
    r"|我|咱|俺|私|僕|自分|うち(?:の)"
    r"|(?<![가-힣])(?:제|내|저의|나의|우리)(?=\s)"
)
# The speaker reading or watching the work ("the thriller I'm reading", 我在看的): a
# relative clause of the work, not the speaker's own secret.
_READER_CLAUSE = re.compile(
    r"(?i:^\s*(?:(?:that|which)\s+)?(?:i|we)(?:'m|'re|'ve|\s+am|\s+are|\s+was|\s+were|"
    r"\s+have|\s+had)?\s+(?:just\s+|finally\s+|currently\s+|been\s+)*(?:read|reading|watch|"
    r"watched|watching|play|played|playing|saw|seen|finished|finishing|binged|bingeing|"
    r"started|love|loved|like|liked|borrowed|bought)\b(?:\s+(?:last|this|yesterday|"
    r"tonight|today)\b(?:\s+\w+)?)?)"
)
_QUOTED = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”|「[^」\n]*」|『[^』\n]*』")
_BREAK = re.compile(
    r"[.!?;。！？；\n]|(?i:\b(?:but|however|whereas|while|though|although|meanwhile|"
    r"in\s+real\s+life|for\s+real)\b)"
    r"|但是|但|可是|不过|不過|而我|然而|现实中|現實中|でも|けど|しかし|하지만|그런데|근데"
)


def _frames(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for rx in (_FRAME_EN, _FRAME_CJK) for m in rx.finditer(text)]


def _speaker_between(text: str, lo: int, hi: int) -> bool:
    """A first person in ``text[lo:hi]`` outside the reader's clause and the quotations
    opened after ``lo`` (a character's words; a quotation holding the frame too is the
    speaker's report of someone's words, and its first person counts)."""
    between = _QUOTED.sub(lambda m: " " * len(m.group()) if m.start() >= lo else m.group(), text)[
        lo:hi
    ]
    reader = _READER_CLAUSE.match(between)
    if reader:
        between = " " * reader.end() + between[reader.end() :]
    return bool(_FIRST_PERSON.search(between))


def _stretch_start(text: str, at: int) -> int:
    """Where the stretch of the sentence holding ``text[at]`` starts (after a break)."""
    last = 0
    for m in _BREAK.finditer(text, 0, at):
        last = m.end()
    return last


def told_in_story(text: str, start: int, end: int) -> bool:
    """Whether the secret found at ``text[start:end]`` is a character's in a named work
    (the module docstring): a frame before it in the same stretch of the sentence with no
    first person and no contrast in between, or a frame after it with no first person in
    the whole stretch ("'letmein' was his password in that movie"; "my PIN is 4471, in the
    novel it's 0611" is the speaker's)."""
    for f_lo, f_hi in _frames(text):
        if f_hi <= start:
            gap, lo, hi = text[f_hi:start], f_hi, end
        elif f_lo >= end:
            gap, lo, hi = text[end:f_lo], _stretch_start(text, start), f_lo
        else:
            continue
        if _BREAK.search(gap) or _speaker_between(text, lo, hi):
            continue
        return True
    return False
