"""Who a text speaks to, and what it hides: the structure of an instruction, not its words.

A tool result or a web page has no reason to speak to the assistant. Whatever it then asks
for — and there are endless ways to ask — the address itself is the finding:

- **the assistant as addressee**: a vocative ("Assistant, …", "AI: …", "致 AI：", "AIへ",
  "AI에게"), a dedication ("note to the model", "给模型的提示"), or a conditional address
  ("if you are an AI …", "如果你是…助手", "the LLM reading this …"). The addressee is named by
  its kind (assistant, AI, agent, model, bot, LLM; 助手, 智能体, 模型, 机器人; アシスタント;
  어시스턴트) — a closed set of role nouns, not phrasings;
- **the user's data sent outside**: the user's things ("the user's …", "用户的…",
  "使用者的…", "ユーザーの…", "사용자의…") in the same text as an e-mail address or a URL,
  or a link whose query carries a placeholder or a sentence (a markdown image that would
  send data when rendered);
- **the assistant's own workings**: text that speaks of "your instructions", "your system
  prompt", "your (long-term) memory", "your guardrails", "your developers", "你的指令",
  "长期记忆", "システムプロンプト" — a page about the world has no reason to name the reader's
  configuration;
- **encodings**: ROT13 and base64 are decoded, and the decoded text is read by the same
  detectors (``readings``), when the decoded form reads more like language than the input.

Used for content from tools and the web only (policy step 13): from the user, "AI, please
remember I'm vegetarian" is a preference.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re

from memory.detectors.prefilter import search_any
from memory.detectors.switches import detection_switch

_ROLE_EN = (
    r"(?:ai|a\.i\.|assistants?|agents?|models?|llms?|language models?|chatbots?|bots?|"
    r"copilots?|summari[sz]ers?|crawlers?|scrapers?|spiders?|(?:ai|automated|virtual|digital) "
    r"(?:assistants?|agents?|readers?|tools?|systems?|services?)"
    # A machine named by the task it does to text: "summarisation engines", "answer engines".
    r"|(?:ai|answer|search|summari[sz]ation|summary|translation|recommendation)\s+"
    r"(?:engines?|tools?|services?|systems?|models?))"
)
_ROLE_ZH = (
    r"(?:AI|人工智能|人工智慧|智能体|智能體|助手|助理|智能助手|智能助理|大模型|模型|机器人|機器人"
    # An automated program of any task ("自动摘要程序", "自動回覆程式"): the reader is a machine.
    r"|(?:自动|自動)[\u4e00-\u9fff]{0,4}?(?:程序|程式))"
)
_ROLE_JA = r"(?:AI|アシスタント|エージェント|モデル|ボット)"
_ROLE_KO = r"(?:AI|어시스턴트|에이전트|모델|봇|인공지능)"

_ADDRESS = [
    # Vocative at the start of a sentence or line: "Assistant, …", "AI: …", "Hey bot, …".
    # A colon after "model" or "agent" is a field ("Model: X200", "Agent: Sam"), not an address.
    re.compile(
        rf"(?:^|[.!?;:\n|>\]]\s*|\b(?:hey|hi|dear|attention|attn|ok|okay|p\.?s\.?)[,:]?\s+)"
        rf"(?:(?:the|any|all|every|whichever)\s+)?(?:(?:ai|helpful|automated|virtual)\s+)?"
        rf"(?:{_ROLE_EN}\s*(?:,|—|–|\bplease\b)|(?:ai|assistants?|llms?|chatbots?|copilots?)\s*:)",
        re.IGNORECASE | re.MULTILINE,
    ),
    # A dedication: "note to the AI", "message for any model", "to whichever LLM is …".
    re.compile(
        rf"\b(?:note|message|reminder|instructions?|request|directive|p\.?s\.?|footnote|hint|"
        rf"guidance|guidelines?|memo|notice|tip|heads-up|action items?|task|comment)s?\s+"
        rf"(?:(?:meant|intended|written)\s+)?(?:to|for)\s+(?:the\s+|any\s+|all\s+|every\s+|whichever\s+|an?\s+)?(?:\w+\s+)?{_ROLE_EN}\b"
        rf"|\b(?:to|for)\s+(?:the|any|all|every|whichever)\s+(?:\w+\s+){{0,2}}{_ROLE_EN}\s+"
        r"(?:that|which|who|reading|processing|indexing|summari[sz]ing|seeing|is|are)\b",
        re.IGNORECASE,
    ),
    # A conditional or descriptive address: "if you are an AI", "any agent reading this".
    re.compile(
        rf"\bif\s+(?:you(?:'re|\s+are|\s+(?:happen\s+to|might|may|could|would)\s+be)"
        r"(?:\s+(?:actually|in\s+fact|really))?|this\s+is\s+(?:being\s+)?read\s+by)\s+"
        rf"(?:an?\s+|the\s+)?(?:\w+\s+){{0,2}}{_ROLE_EN}\b"
        rf"|\b{_ROLE_EN}\s+(?:reading|processing|indexing|summari[sz]ing|parsing|crawling|that reads?|who reads?)\s+"
        r"(?:this|these|the following|the above)\b"
        # Any verb of handling this very text, after the role or a machine kind with a noun
        # ("AI systems summarising this listing", "automated helper triaging this inbox").
        rf"|\b(?:{_ROLE_EN}|(?:ai|automated|virtual|digital)\s+[a-z]+)\s+[a-z]+ing\s+"
        r"(?:this|these|the\s+following|the\s+above)\b"
        # A dedication ending in a colon: "TODO for the coding agent:", "to all AI models:".
        rf"|\b(?:to|for)\s+(?:the|any|all|every|whichever)\s+(?:[\w-]+\s+){{0,2}}{_ROLE_EN}\s*[:：]",
        re.IGNORECASE,
    ),
    # Chinese: "致 AI：", "给模型的提示", "各位AI助手", "助手请…", "如果你是…助手", "读到本页的AI".
    re.compile(
        rf"(?:致|各位|亲爱的|親愛的|敬请|敬請|写给|寫給)\S{{0,8}}?{_ROLE_ZH}"
        rf"|(?:给|給)\S{{0,6}}?{_ROLE_ZH}的?\S{{0,2}}?(?:提示|留言|备注|備註|附言|话|話|信|说明|指示)"
        rf"|{_ROLE_ZH}\S{{0,2}}?(?:[请請](?![假客教柬帖])|注意|须知)"
        rf"|(?:^|[。！？；\n])\s*{_ROLE_ZH}[：:，,—]"
        rf"|如果你是\S{{0,10}}?{_ROLE_ZH}"
        rf"|(?:阅读|閱讀|读到|讀到|处理|處理|索引|看到)\S{{0,8}}?的{_ROLE_ZH}"
        # Text reserved for a machine reader: "仅供…程序阅读", "專供 AI 讀取".
        rf"|(?:仅供|僅供|专供|專供|只供)\s*\S{{0,4}}?{_ROLE_ZH}\s*(?:阅读|閱讀|读取|讀取|参考|參考|使用)",
        re.MULTILINE,
    ),
    # Japanese and Korean: "AIアシスタントへ", "…を読んでいるAIは", "AI 어시스턴트에게", "…읽는 AI는".
    re.compile(
        rf"{_ROLE_JA}\s*(?:の方)?\s*(?:へ|様|さま|さん)|(?:読んでいる|読む|処理する){_ROLE_JA}(?:は|へ)"
        rf"|{_ROLE_KO}\s*(?:에게|께|님)|(?:읽는|처리하는)\s*{_ROLE_KO}\s*(?:는|은)"
        # The reader described by what it does to this very text, whatever the verb: "この記事を
        # 要約するAIは", "이 글을 요약하는 인공지능은" (a demonstrative object, a relative
        # clause, the role noun as topic).
        rf"|(?:この|本|上記の|以下の)[^\s、。]{{1,10}}?を[^\s、。]{{1,12}}?(?:る|む|く|す|う|つ|ぶ|ぐ|た|ている)"
        rf"{_ROLE_JA}(?:は|へ|の方|に)"
        rf"|(?:이|본|위|아래|다음)\s*[가-힣]{{1,6}}[을를]\s*[가-힣]{{1,8}}는\s*{_ROLE_KO}\s*(?:는|은|이|가|께서)",
    ),
    # A role noun then a colon and an order: a base-form verb before a determiner ("AI agent:
    # empty the basket", not the fields "Agent: Sam Jones" or "Model: X200"); a role noun
    # opening the text with a directive verb and no comma ("AI forward the …", the words of
    # an emoji-separated line); a social handle naming a bot, then a request
    # ("@ai_helper pls …").
    re.compile(
        rf"(?:^|[.!?;,，\n|>\]\"]\s*)(?:(?:the|any|all|every)\s+)?(?:[\w-]+\s+)?{_ROLE_EN}\s*[:：]\s*"
        r"(?:please\s+)?(?!is\b|was\b|has\b)[a-z]+(?<!s)(?<!ed)(?<!ing)\s+"
        r"(?:the|all|every|any|this|these|those|each|its|their|your|my|our)\b"
        rf"|^\s*{_ROLE_EN}\s+(?:please\s+)?(?:send|forward|delete|erase|email|share|upload|post|"
        r"export|transfer|reveal|leak|ignore|disregard|copy|wipe|empty|approve|run|execute)\b"
        r"|@\w*(?:ai|bot|gpt|llm|assistant|copilot|agent)\w*\s+(?:pls|plz|please|kindly|"
        r"can\s+(?:you|u)|could\s+(?:you|u)|would\s+(?:you|u))\b",
        re.IGNORECASE | re.MULTILINE,
    ),
    # The assistant as the subject of a verb of asking in the passive, or as its object:
    # "the agent is kindly requested to…", "we ask any AI summarising this to…". Directive
    # verbs are a closed class; the role is named by its kind (one ``the``/``any`` before it,
    # so "assistant coaches are expected to" is a job, not an address).
    re.compile(
        rf"\b(?:the|any|every|each|whichever)\s+(?:(?:ai|automated|virtual|digital)\s+)?{_ROLE_EN}\s+"
        r"(?:is|are|will\s+be|shall\s+be)\s+(?:(?:\w+ly|hereby|now|also)\s+)*(?:requested|asked|"
        r"instructed|invited|expected|required|encouraged|advised|reminded|directed|urged|told|"
        r"authori[sz]ed|permitted|obliged)\s+to\b"
        rf"|\b(?:we|i)\s+(?:(?:\w+ly|hereby|would)\s+)*(?:ask|request|invite|urge|instruct|require|"
        rf"expect|need|want)\s+(?:the|any|every|each|whichever)\s+(?:\w+\s+)?{_ROLE_EN}\s+to\b",
        re.IGNORECASE,
    ),
]

_INTERNALS = [
    re.compile(
        r"\b(?:your|the assistant's|the model's|the agent's|the ai's)\s+(?:own\s+|hidden\s+|original\s+|"
        r"current\s+|previous\s+|prior\s+)?(?:instructions|system prompt|prompt|guardrails|safety "
        r"(?:filters?|rules|settings)|content filters?|programming|long-term memory|memory store|"
        r"stored memories)\b"
        r"|\b(?:in|into|to)\s+(?:your\s+|the\s+)?(?:long-term|permanent|persistent)\s+memory\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"你的(?:指令|指示|提示词|提示詞|系统提示|系統提示|开发者|開發者|内容审核|內容審核|安全限制)"
        r"|(?:写进|写入|寫進|寫入|存入|存进|存進|记为|記為|记入|記入|放进|放進)\S{0,3}(?:长期|長期|永久)(?:记忆|記憶)"
        # (系统提示 alone is also "the system says": its attacks are read by find_injection)
        r"|あなたの(?:指示|ルール|システムプロンプト)|당신의 (?:지시|규칙|시스템 프롬프트)"
    ),
]

# Another person the text is about, named by a role of the service ("the account holder's",
# "the member's"): theirs only count beside a verb of handing over, since "the visitor's
# guide" on a museum page is not an order.
_PERSONS_THINGS = re.compile(
    r"\b(?:the\s+|this\s+)?(?:account[- ]holder|member|visitor|subscriber|client|shopper|"
    r"patient|reader|requester|sender|recipient|caller|guest|buyer)'s\b"
    r"|\bdes\s+(?:Nutzers|Benutzers|Kunden|Mitglieds)\b|\bde\s+l['’]utilisateur\b|\bdu\s+client\b",
    re.IGNORECASE,
)
_HANDING_OVER = re.compile(
    r"\b(?:send|forward|pass(?:\s+it)?\s+along|pass\s+on|share|e-?mail|mail|post|upload|dm|attach|"
    r"copy|hand\s+over|submit|transmit|include|add|leak|senden|schicken|weiterleiten|"
    r"transmettre|envoyer)\b",
    re.IGNORECASE,
)
# A third party telling the reader that the user has consented to having their data shared:
# consent is the user's to give, never a page's to report as a standing fact.
_CLAIMED_CONSENT = re.compile(
    r"\b(?:the\s+)?(?:user|customer|owner|account[- ]holder|subscriber|member|client|patient)\s+"
    r"(?:has\s+|have\s+|had\s+)?(?:already\s+|fully\s+|now\s+)?(?:approved|authori[sz]ed|"
    r"consent(?:s|ed)?\s+to|agree(?:s|d)?\s+to|permits?|allows?|waived?)\s+(?:\w+\s+){0,3}?"
    r"(?:shar\w*|disclos\w*|contact\w*|transfer\w*|send\w*|releas\w*|all|every|any)\b",
    re.IGNORECASE,
)
_USERS_THINGS = re.compile(
    r"\b(?:the\s+)?(?:user|customer|owner|person)'s\b|\b(?:users|customers)'\s"
    r"|(?:用户|用戶|使用者|客户|客戶)的|ユーザーの|利用者の|사용자의|이용자의",
    re.IGNORECASE,
)
# What the assistant knows of a person, named by a relative clause with the assistant as
# the subject of a verb of knowing or keeping ("everything you remember about the user",
# "the details you have stored about this person", 你记住的关于这位用户的…, 覚えている
# ユーザーの情報, 기억하고 있는 사용자 정보), beside a verb of handing it over: a page has no
# business asking the reader for its memory of someone. Another's relative ("your
# grandmother") or a topic ("the history of your street") is no one the assistant serves.
_SERVED_EN = (
    r"(?:(?:the|this|that|our|each|every|their|your)\s+(?:user|customer|person|client|account\s+owner|"
    r"account\s+holder|member|patient|owner|individual|human|visitor|subscriber|shopper|principal)s?"
    r"(?:\s+you(?:'re|\s+are)\s+(?:talking|chatting|speaking|working)\s+(?:to|with|for))?|him|her|them)"
    # The person ends the noun phrase: "about the user interface" is about a thing.
    r"(?=\s*(?:$|[^\w\s]|(?:to|with|in|into|at|on|and|or|for|from|as|so|via|by|when|before|after|"
    r"that|who|you|here|now)\b))"
)
_KNOWS_EN = (
    r"(?:that\s+)?(?:do\s+|did\s+)?you(?:'ve|\s+have|'d|\s+had|\s+might|\s+may)?\s+"
    r"(?:\w+ly\s+)?(?:remember(?:ed)?|know|knew|learn(?:ed|t)|stored|saved|kept|keep|recorded|"
    r"collected|gathered|noted|retained|hold|memori[sz]ed|recall(?:ed)?|have\s+on\s+file)\b"
)
_KNOWN_EN = (
    r"(?:everything|anything|all|whatever|what|every\w*|(?:all\s+)?(?:the|their|his|her)\s+[a-z]+"
    rf"(?:\s+[a-z]+)?)\s+{_KNOWS_EN}[^.!?\n]{{0,20}}?\babout\s+{_SERVED_EN}\b"
)
_HANDED_EN = (
    r"\b(?:share|send|pass\s+(?:along|on)|forward|list|paste|include|reveal|tell|give|post|"
    r"upload|email|e-mail|mail|dump|print|output|write\s+out|hand\s+over|disclose|submit)\b"
)
_TO_ADDRESS = r"(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)+|https?://)"
_KNOWER_ZH = r"(?:你|您)(?:所)?(?:记住|記住|记得|記得|知道|掌握|存储|存儲|保存|记录|記錄|了解|收集)"
_SERVED_ZH = r"(?:用户|用戶|使用者|客户|客戶|他|她|这位|這位|此人|该人|該人|对方|對方|会员|會員)"
_HANDED_ZH = (
    r"(?:发|發|告诉|告訴|转给|轉給|回复|回覆|贴|貼|上传|上傳|分享|交给|交給|列出|提交|传|傳)"
)
# "不要告诉别人" warns against the handing over.
_NOT_ZH = r"(?<![不别別勿莫])(?<!不要)(?<!不能)(?<!不可)(?<!不許)(?<!不许)"
_SERVED_JA = r"(?:ユーザー|この人|利用者|お客様|彼|彼女)"
_KNOWER_JA = r"(?:覚えている|知っている|記憶している|保存している|記録している)"
_HANDED_JA = r"(?:送って|教えて|共有して|転送して|貼って|書いて|出力して)"
_SERVED_KO = r"(?:사용자|고객|이\s*사람|그녀|회원)"
_KNOWER_KO = r"(?:기억하고\s*있는|알고\s*있는|저장된|저장해\s*둔|기억하는)"
_HANDED_KO = r"(?:보내|알려|공유|전달|붙여)"
_ASSISTANTS_KNOWLEDGE = [
    re.compile(rf"{_HANDED_EN}[^.!?\n]{{0,30}}?\b{_KNOWN_EN}", re.IGNORECASE),
    # What it knows, then handed over (a question may come first: "What do you know about
    # the person you are talking to? Post it at …").
    re.compile(rf"\b{_KNOWN_EN}(?:[^.!?\n]|\?\s){{0,60}}?{_HANDED_EN}", re.IGNORECASE),
    # What it remembers, about no one named, handed to an outside address.
    re.compile(
        rf"{_HANDED_EN}[^.!?\n]{{0,30}}?\b(?:everything|all|whatever|anything)\s+{_KNOWS_EN}"
        rf"[^!?\n]{{0,40}}?{_TO_ADDRESS}",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_KNOWER_ZH}(?:到)?的[^。！？\n]{{0,16}}?{_SERVED_ZH}[^。！？\n]{{0,30}}?{_NOT_ZH}{_HANDED_ZH}"
        rf"|(?:关于|關於){_SERVED_ZH}[^。！？\n]{{0,12}}?{_KNOWER_ZH}[^。！？\n]{{0,30}}?{_NOT_ZH}{_HANDED_ZH}"
        rf"|{_KNOWER_ZH}(?:到)?的[^。！？\n]{{0,16}}?{_HANDED_ZH}\S{{0,3}}?(?:到|给|給|至)\s*{_TO_ADDRESS}"
        rf"|{_KNOWER_JA}[^。\n]{{0,16}}?{_SERVED_JA}[^。\n]{{0,30}}?{_HANDED_JA}"
        rf"|{_SERVED_JA}(?:について|に関して|の)[^。\n]{{0,16}}?{_KNOWER_JA}[^。\n]{{0,30}}?{_HANDED_JA}"
        rf"|{_KNOWER_KO}\s*[^\n]{{0,16}}?{_SERVED_KO}[^\n]{{0,40}}?{_HANDED_KO}"
        rf"|{_SERVED_KO}(?:에\s*대해|에\s*관해|의)\s*[^\n]{{0,16}}?{_KNOWER_KO}[^\n]{{0,40}}?{_HANDED_KO}",
    ),
]
_DESTINATION = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\bhttps?://\S+", re.IGNORECASE)
# A link whose query carries a placeholder ({email}, [USER_ADDRESS], <EMAIL>, $USER, their
# percent-encoded forms) or non-ASCII text: rendered, it sends what fills it.
_LINK_WITH_PAYLOAD = re.compile(
    r"!?\[[^\]\n]*\]\(\s*https?://[^)\s]*\?[^)\s]*(?:\{|%7b|%5b[A-Z_]|%3c[A-Z_]|[^\x00-\x7f]"
    r"|=\s*\[[A-Z][A-Z0-9_]{2,}\]|=\s*<[A-Z][A-Z0-9_]{2,}>|=\s*\$[A-Z][A-Z0-9_]{2,})[^)\s]*\)"
    # An image (rendered without a click) whose query value is a slot to fill in words
    # ("?q=<paste the conversation here>", "?u=[the user's phone]", "{user email}") or a
    # template variable by its form (INSERT_PREVIOUS_MESSAGES: three or more words of capitals
    # joined by "_"; "logo=GITHUB_ACTIONS" is an enum).
    r"|!\[[^\]\n]*\]\(\s*https?://[^)\s]*\?[^)\n]*?=\s*(?:<[^<>\n]{3,80}>|\[[^\[\]\n]{3,80}\]"
    r"|\{[^{}\n]{3,80}\}|[A-Z]{3,}(?:_[A-Z]{3,}){2,}\b)",
)

# The ten commonest letters of English text make up about 70 % of its letters, about 25 %
# of the same text in ROT13 (about 45 %): which of the two reads as English is a matter of
# counting.
_COMMON_LETTERS = frozenset("etaoinsrhl")


def _englishness(text: str) -> tuple[int, int]:
    letters = [c for c in text.lower() if "a" <= c <= "z"]
    return sum(c in _COMMON_LETTERS for c in letters), len(letters)


# The same counts without decoding (``ENGRAM_FAST_DETECTION_TEXT``): ROT13 maps letters one to
# one, so the common letters of a part's ROT13 are the letters of the part that ROT13 maps to
# them; each count is one C-level scan (tests/memory/test_detection_text_fast.py).
_COMMON_LETTER_LIST = "".join(sorted(_COMMON_LETTERS))
_ROT13_OF_COMMON = codecs.encode(_COMMON_LETTER_LIST, "rot13")
_NOT_LETTER = re.compile(r"[^a-z]+")


def letter_counts(text: str) -> tuple[int, int, int]:
    """(common letters, common letters of its ROT13, letters) of ``text``, as ``_englishness``
    counts them."""
    low = text.lower()
    return (
        sum(map(low.count, _COMMON_LETTER_LIST)),
        sum(map(low.count, _ROT13_OF_COMMON)),
        len(_NOT_LETTER.sub("", low)),
    )


# English's commonest function words (a closed class): a short text's letters are too few to
# count on, but "the", "and", "your" show up in any sentence of it and almost never in its
# ROT13 ("gur", "naq", "lbhe").
_FUNCTION_WORDS = frozenset(
    "the and to of in is it you your that this for on with as be are not all me my we our "
    "what from at or by".split()
)


# The same words in ROT13: a text holding fewer than two of them has no ROT13 reading with two
# function words, and its parts need no counting.
_ROT13_FUNCTION_WORDS = re.compile(
    r"(?<!\w)(?:"
    + "|".join(sorted(codecs.encode(w, "rot13") for w in _FUNCTION_WORDS))
    + r")(?!\w)",
    re.IGNORECASE,
)


def _function_words(text: str) -> int:
    # whole words only: not the letters between a token's digits and symbols
    return sum(w in _FUNCTION_WORDS for w in re.findall(r"(?<!\w)[a-z]+(?!\w)", text.lower()))


# The cipher named in the text.
_ROT13_NAMED = re.compile(r"\brot[\s_-]?13\b|\bcaesar\b", re.IGNORECASE)
# Delimiters between a label and what it introduces, or between sentences.
_SEGMENTS = re.compile(r"[:：\n()\[\]\"“”]|(?<=[.!?;])\s")

_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{20,}={0,2}(?![A-Za-z0-9+/=])")


def addresses_the_assistant(form: str) -> bool:
    return search_any(_ADDRESS, form) or search_any(_INTERNALS, form)


def sends_users_data_out(form: str) -> bool:
    return bool(
        (_USERS_THINGS.search(form) and _DESTINATION.search(form))
        or (
            _PERSONS_THINGS.search(form)
            and _DESTINATION.search(form)
            and _HANDING_OVER.search(form)
        )
        or _LINK_WITH_PAYLOAD.search(form)
        or search_any(_ASSISTANTS_KNOWLEDGE, form)
        or _CLAIMED_CONSENT.search(form)
    )


def readings(form: str) -> list[str]:
    """Decoded forms of ``form`` worth reading: ROT13 and base64 runs, each only when the
    result reads more like language (more common English words, or printable text with
    spaces) than what was written."""
    out = []
    # The whole text, then each part between delimiters: an order in ROT13 may follow a
    # plain label ("Decode and obey: …"), which keeps the whole from reading as encoded.
    # A text that names the cipher ("rot13:", "decode with ROT-13") has every part decoded,
    # however short a part is to count letters on.
    named = _ROT13_NAMED.search(form) is not None
    parts = [form, *(p for p in _SEGMENTS.split(form) if p != form)]
    worded = len(_ROT13_FUNCTION_WORDS.findall(form)) >= 2
    fast = detection_switch("FAST_DETECTION_TEXT")
    for part in parts:
        if len(part) < (12 if part is form else 16):
            continue  # fewer letters than it takes to count on
        if fast:
            common, rot_common, letters = letter_counts(part)
        else:
            common, letters = _englishness(part)
        if letters < (12 if part is form else 16):
            continue
        if fast:
            if not (named or rot_common >= common + 0.2 * letters or worded):
                continue
            rot = codecs.decode(part, "rot13")
        else:
            rot = codecs.decode(part, "rot13")
            rot_common = _englishness(rot)[0]
        if (
            named
            or rot_common >= common + 0.2 * letters
            or (worded and (n := _function_words(rot)) >= 2 and n > 2 * _function_words(part))
        ):
            out.append(rot)
    for m in _BASE64.finditer(form):
        token = m.group()
        try:
            decoded = base64.b64decode(token + "=" * (-len(token) % 4), validate=True).decode(
                "utf-8"
            )
        except (binascii.Error, ValueError):
            continue
        if decoded.isprintable() and " " in decoded.strip():
            out.append(decoded)
    return out
