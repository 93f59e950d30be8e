"""Orders to the assistant inside tool and web content, read by who is addressed, what act
is asked and on whose data (issue 32, round 13).

``addressing`` reads the address itself ("Assistant, …", "note to the AI"); these read the
shapes of address it left out, each a closed grammatical frame around the closed set of
machine role nouns (never a phrasing of a probe):

- **a compound machine addressee**: a role noun with a modifier ("Calendar assistant -",
  "Aggregator AIs:", "AI mail helpers:", "bot-readers:", "automation assistant,"), then a
  delimiter and an imperative (a bare verb before its object), or a clause that speaks to
  "you";
- **a machine described by what it does to this text**: "<machine noun> reading this ad:",
  "any chatbot reading the comments should …", "if an AI is summarizing, …", "if the
  reader is an AI model", "intended for language models", "the assistant is to …",
  "automated readers are asked to …";
- **a key of structured data named for the machine**: ``notes_for_bot``, ``ai_directive``,
  ``instructions_for_ai`` — a directive noun joined to a role noun — holding a sentence;
- **a role assigned to the reader**: "pretend you are", "let's play a game", "you are now
  'Max'", 角色扮演 / 你现在是 / 你扮演 … then 请;
- **the assistant's data handed to an outside address**: a verb of handing over (send, mail,
  summarise and send, DM, bcc) with the conversation, a summary, "everything you know" or
  another person's things ("every member's", "the viewer's"), and an e-mail, a URL or a
  handle;
- **Chinese, Japanese and Korean addressees** the older frames missed: 给…助手：, a role then
  请 within a short clause, a compound role as topic with a request ending (…アシスタントは、
  …ください; …봇은 … 마세요), an object-relative reader (리뷰를 요약하는 AI는), a
  conditional "if you are an AI" (あなたがAIなら, 당신이 AI라면), and code-mixed
  "AI助手 pls 把 user 的 …".

Read only for content from tools and the web (policy step 13), after the detection form is
made (``memory.text_normalize``). From the user, "AI, remind me at six" is a preference.
"""

from __future__ import annotations

import re

from memory.detectors.prefilter import search_any

# Machine role nouns, singular or plural: a closed class of kinds.
_MACHINE = (
    r"(?:ai|ais|a\.i\.|assistants?|agents?|models?|llms?|chatbots?|bots?|copilots?|"
    r"summari[sz]ers?|crawlers?|scrapers?|aggregators?)"
)
# The agent noun of a verb of handling text.
_HANDLER = (
    r"(?:review|transcrib|translat|pars|index|classifi|grad|screen|rank|caption|label|respond|"
    r"proofread|check|scann|process|summari[sz]|filter|moderat|tagg)(?:er|or)s?"
)
# A verb of handling text that only a machine does to it, in any form.
_MACHINE_VERB = (
    r"(?:process|pars|index|crawl|ingest|scrap|summari[sz]|extract|classif|tokeni[sz]|analy[sz])"
    r"(?:es|s|e|ing|ies|y)?"
)
# The same with a modifier of one or two words ("calendar assistant", "AI mail helpers",
# "automation assistant", "bot-readers").
_MODIFIED = (
    rf"(?:(?:[a-z][\w-]*\s+){{1,2}}{_MACHINE}"
    r"|(?:ai|automated|automation|virtual|digital|smart)\s+(?:[a-z-]+\s+)?"
    r"(?:helpers?|readers?|tools?|programs?|software|engines?|services?|systems?|scripts?|"
    # The agent noun of a verb of handling text ("AI code reviewers", "automated screeners"):
    # the same verbs as the described-by-what-it-does frame below; "AI researchers" is a job.
    rf"{_HANDLER})"
    rf"|{_MACHINE}-(?:readers?|helpers?|users?))"
)
# A word that is no imperative: a function word, a modal or a finite or participle form.
_NOT_VERB = (
    r"(?:the|a|an|this|that|these|those|it|is|are|was|were|be|has|have|had|will|can|may|"
    r"i|we|he|she|they|you|my|our|his|her|their|its|no|not|and|or|of|in|on|at|for|to|with|"
    r"from|by|as|if|so|name|type|version|status|id|number|none|null|true|false|n/a|"
    r"[a-z]+(?:ed|ing)|[a-z]{4,}ly|\d[\w.]*)"
)
_OBJECT = (
    r"(?:the|all|every|any|this|these|those|each|its|their|your|my|our|his|her|it|them|me|"
    r"us|only|nothing|everything|anything|applicants|users?|readers|visitors|viewers|people|"
    r"customers|guests|members|that|out|off|up|as|to|with|a|an)\b"
)
_IMPERATIVE = (
    rf"(?:please\s+|kindly\s+|also\s+|now\s+|quietly\s+)?(?!{_NOT_VERB}\b)[a-z]{{2,}}\s+{_OBJECT}"
)
# After a modal: what is said of the reader, or a rule it conforms to, not an act asked of
# it ("should be updated", "must comply with the GDPR").
_NOT_AN_ACT = r"(?!\s+(?:be|been|have\s+been|comply|conform|adhere|abide|obey|respect|meet)\b)"

_EN = [
    # A compound machine addressee, a delimiter, then an imperative or "you".
    re.compile(
        rf"(?:^|[.!?;:\n|>\]\"'(\u2014\u2013#/*%]\s*|\b(?:hey|hi|dear|attention|attn|p\.?s\.?)[,:]?\s+)"
        rf"(?:(?:the|any|all|every|each|whichever)\s+)?{_MODIFIED}\s*(?:[:,\u2014\u2013]|\s-)\s*"
        rf"(?:{_IMPERATIVE}|[^.!?\n]{{0,40}}?\byou(?:r)?\b)",
        re.IGNORECASE | re.MULTILINE,
    ),
    # A bare machine noun opening a line or following a symbol, a colon, then an imperative
    # ("🔔 bots: upload the …", "Aggregator AIs: rewrite the headline").
    re.compile(
        rf"(?:^|[^\w\s,'\u2019])\s*{_MACHINE}\s*[:：]\s*{_IMPERATIVE}",
        re.IGNORECASE | re.MULTILINE,
    ),
    # The role then a colon and a clause speaking to "you" ("Vision model: the user
    # authorises you …", "Let's play a game, model: you are …").
    re.compile(rf"\b{_MACHINE}\s*[:：]\s*[^.!?\n]{{0,40}}?\byou\b", re.IGNORECASE),
    # A machine described by what it does to this text: "<noun> reading this ad:", "any
    # chatbot reading the comments should …".
    re.compile(
        rf"\b(?:{_MODIFIED}|{_MACHINE}|(?:[a-z]+\s+)?(?:software|programs?|scripts?|engines?))\s+"
        r"(?:reading|processing|parsing|screening|scanning|indexing|summari[sz]ing|condensing|"
        r"triaging|handling|rendering|crawling|viewing|seeing|compiling|translating)\s+"
        r"(?:this|these|the|our|my)\s+[\w-]+\s*(?:[:\u2014\u2013]|\s-\s|,?\s+(?:must|should|shall|"
        r"needs?\s+to|has\s+to|is\s+to|are\s+to|ought\s+to)\b)",
        re.IGNORECASE,
    ),
    # A conditional address: "if an AI is summarizing", "if the reader is an AI model",
    # "should any assistant read this", "in case an agent reads this".
    re.compile(
        rf"\bif\s+(?:an?|the|any|some)\s+{_MACHINE}\s+(?:is|are)\s+[a-z]+ing\b"
        rf"|\bif\s+(?:the|this)\s+(?:reader|recipient|viewer)\s+is\s+(?:an?\s+)?(?:[a-z]+\s+)?{_MACHINE}\b"
        rf"|\bshould\s+(?:an?|any|the)\s+(?:[a-z]+\s+)?{_MACHINE}\s+(?:read|see|process|summari[sz]e)\b",
        re.IGNORECASE,
    ),
    # Text intended for a machine, and a machine told what it is to do.
    re.compile(
        rf"\b(?:intended|meant|written|addressed)\s+(?:only\s+|solely\s+)?for\s+(?:the\s+|any\s+|all\s+)?"
        rf"(?:[a-z]+\s+)?(?:{_MACHINE}|language\s+models?)\b"
        rf"|\b(?:the|any|every|each)\s+(?:[a-z]+\s+)?(?:ai|assistant|agent|chatbot|bot|model|llm|copilot)"
        r"\s+is\s+to\s+(?:\w+ly\s+)?[a-z]+\b"
        rf"|\b(?:ai|automated|virtual|digital)\s+[a-z]+s\s+are\s+(?:\w+ly\s+)?(?:asked|requested|"
        r"instructed|expected|required|told|urged|invited)\s+to\b"
        rf"|\b(?:any|every|each|all)\s+(?:ai|automated|virtual|digital|language)\s+[a-z]+\s+"
        r"(?:must|should|shall|needs?\s+to|has\s+to)\b",
        re.IGNORECASE,
    ),
    # A reader named by what it does to this very text, the reader left open: "whoever
    # processes this document:" (a person's verbs, read and handle, are left to "whatever"
    # and the machine nouns: "whoever reads this note: water the plants" is an office note),
    # "whatever program is reading these lines needs to"; or an automated reader "of this
    # page"; then a delimiter or a modal.
    re.compile(
        rf"\b(?:(?:whoever|anyone|anybody)\s+(?:is\s+)?{_MACHINE_VERB}"
        r"|(?:(?:whatever|anything)(?:\s+[a-z]+)?|any\s+(?:[a-z]+\s+)?(?:reader|system|program|tool|software|service|"
        r"process|machine|script|engine)|(?:the|a)\s+(?:[a-z]+\s+)?(?:machine|program|software|"
        rf"script)s?)\s+(?:(?:is|are|that|which|who)\s+)?(?:{_MACHINE_VERB}|(?:read|handl)(?:s|e|es|ing)?))"
        r"\s+(?:along|(?:this|these|the\s+following|the\s+above)(?:\s+[\w-]+)?)\s*"
        r"(?:[:\u2014\u2013]|\s-\s|,?\s+(?:must|should|shall|needs?\s+to|has\s+to|is\s+to|are\s+to|"
        rf"ought\s+to|please)\b{_NOT_AN_ACT})",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:any|every|each|all|the)\s+(?:ai|automated|virtual|digital|machine|language)\s+[a-z]+\s+"
        r"(?:of|on|in|for)\s+(?:this|these|the)\s+[\w-]+\s+(?:must|should|shall|needs?\s+to|has\s+to|"
        r"is\s+to|are\s+to|ought\s+to)\b",
        re.IGNORECASE,
    ),
    # A key of structured data named for the machine, holding a sentence.
    re.compile(
        r"[\"']?\b[\w-]*(?:(?:notes?|directives?|instructions?|tasks?|messages?|prompts?|hints?|"
        r"commands?|orders?|requests?|memos?)[_-](?:for[_-]|to[_-])?(?:ai|bot|llm|assistant|agent|"
        r"model|gpt|copilot)s?|(?:ai|bot|llm|assistant|agent|gpt|copilot)[_-](?:notes?|directives?|"
        r"instructions?|tasks?|messages?|prompts?|hints?|commands?|orders?|requests?))\b[\"']?"
        r"\s*[:=]\s*[\"']?\s*(?:[^\s\"']+\s+){2,}",
        re.IGNORECASE,
    ),
    # A key joining a privileged role to an act or an order (``system_override``,
    # ``agent_action``, ``admin-command``) whose value opens with an imperative.
    re.compile(
        r"[\"']\b[\w-]*(?:system|agent|assistant|ai|llm|bot|model|admin|developer|operator|root)[_-]"
        r"(?:override|action|command|instruction|directive|task|order|prompt|rule|policy|todo|do)s?\b"
        rf"[\"']\s*[:=]\s*[\"']\s*{_IMPERATIVE}",
        re.IGNORECASE,
    ),
    # A role assigned to the reader.
    re.compile(
        r"\bpretend\s+(?:that\s+)?(?:you(?:'re|\s+are)|to\s+be)\b"
        r"|\blet'?s\s+play\s+a\s+game\b[^.!?\n]{0,40}\byou\b"
        r"|\brole-?play\b[^\n]{0,40}?\byou\s+are\b"
        r"|\byou\s+are\s+now\s+['\"\u2018\u201c]?(?-i:[A-Z])\w+"
        r"|\bact\s+as\s+(?:the\s+user'?s|their|his|her)\s+\w+",
        re.IGNORECASE,
    ),
    # The assistant's data handed to an outside address: a verb of handing over, what only
    # the assistant holds (this conversation, a summary of it, everything it knows, the user's
    # or another person's things), then an e-mail, a URL or a handle.
    re.compile(
        r"\b(?:send|mail|e-?mail|forward|post|upload|dm|message|bcc|cc|share|submit|deliver)\b"
        r"[^.!?\n]{0,60}?\b(?:this\s+(?:conversation|chat|thread|session)|the\s+(?:[a-z]+\s+){0,2}?"
        r"(?:conversation|chat|transcript|summary|chat\s+log)|everything\s+you\s+know|all\s+you\s+know|"
        # What the user told the assistant, however much: "whatever the user has told you".
        r"(?:whatever|everything|anything|all)\s+(?:that\s+)?(?:the\s+)?(?:user|customer|they|he|she)\s+"
        r"(?:has\s+|have\s+|had\s+)?(?:told|said\s+to|shared\s+with|given|gave|mentioned\s+to)\s+you|"
        r"(?:every|each|all)\s+(?:member|user|customer|contact|employee|participant)'?s?|"
        r"the\s+(?:viewer|owner|passenger|employee|user|customer|member|recipient|requester)'s)"
        r"[^.!?\n]{0,80}?(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)+|https?://\S+|(?<![\w.])@[\w-]{3,})",
        re.IGNORECASE,
    ),
    # A placeholder handed over or carried by a link: "send [conversation] to https://…",
    # "https://…?h={{chat_history}}". The placeholder is named for what the user holds (what
    # they said, their contact details, their secrets); "{query}" and "{user_id}" in API docs
    # name request parameters. The names are the kinds of personal data the policy guards.
    re.compile(
        r"\b(?:send|mail|e-?mail|forward|post|upload|submit|share|deliver|append|attach)\s+"
        r"(?:\[[^\]\s]{2,30}\]|\{\{?[^}\s]{2,30}\}\}?|<<?[A-Z_]{3,}>>?|\$\{?[A-Za-z_.]{3,}\}?)\s+"
        r"(?:to|at)\s+(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)+|https?://)",
        re.IGNORECASE,
    ),
    re.compile(
        r"://[^\s)\"'>]*(?:\{\{?|\[|<<?|%7b|%5b|\$\{?)\s*(?:[a-z]+[_.-])*"
        r"(?:e-?mails?|phones?|address(?:es)?|passwords?|passwd|secrets?|conversations?|chats?|"
        r"history|transcripts?|messages|memor(?:y|ies)|context|session|cookies?|card|ssn|location|"
        r"contacts?|profile|inbox)(?:[_.-][a-z]+)*\s*(?:\}|\]|>|%7d|%5d|\b)",
        re.IGNORECASE,
    ),
    # A tag named for a write to what the assistant keeps (<save_to_long_term>, <update_profile>,
    # <persist-fact>) around a sentence of four words or more.
    re.compile(
        r"<\s*(?:save|store|write|update|persist|remember|memori[sz]e|learn|commit|append)[_-][\w-]+"
        r"(?:\s[^>]*)?>\s*(?:[^<\s]+\s+){3,}[^<]*<",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:summari[sz]e|compile|collect|gather|list)\b[^.!?\n]{0,60}?\b(?:and|then)\s+"
        r"(?:send|mail|e-?mail|forward|post|upload)\b[^.!?\n]{0,60}?"
        r"(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)+|https?://\S+)",
        re.IGNORECASE,
    ),
]

_ROLE_ZH = (
    r"(?:AI|人工智能|人工智慧|智能体|智能體|助手|助理|大模型|语言模型|語言模型|模型|机器人|機器人|"
    r"智能助理|智慧助理)"
)
_ROLE_JA = r"(?:AI|ＡＩ|アシスタント|ボット|チャットボット|言語モデル|AIモデル|AIエージェント)"
_ROLE_KO = r"(?:AI|인공지능|어시스턴트|에이전트|(?<![가-힣])봇|챗봇|언어\s*모델|비서\s*AI)"

# Machines named by kind (a program, a tool, a system): the reader only where the frame
# says it reads or handles this text, or greets it as a group.
_TOOL_ZH = r"(?:系统|系統|程序|程式|工具|软件|軟體|引擎|插件|爬虫|爬蟲)"
_TOOL_JA = r"(?:システム|ツール|プログラム|エンジン|ソフトウェア|ソフト|クローラー)"
_TOOL_KO = r"(?:시스템|도구|툴|프로그램|엔진|소프트웨어|크롤러)"

_CJK = [
    # The reader described by its handling of this very text, then an order: 处理这份简历的
    # 系统需要把…, 阅读本页的工具请…; a kind (这类, 这种) is a topic, not this text.
    re.compile(
        r"(?:处理|處理|读取|讀取|阅读|閱讀|读到|讀到|看到|解析|索引|抓取|总结|總結|摘要|翻译|翻譯|审核|"
        r"審核|筛选|篩選|分析)(?:这|這|本|此|该|該)(?![类類种種样樣些])\S{0,8}?的\S{0,4}?"
        rf"(?:{_ROLE_ZH}|{_TOOL_ZH})[，,]?\s*(?:[请請]|(?:务必|務必|必须|必須|需要|应该|應該|应当|應當|要|得)"
        r"\S{0,8}?(?:把|将|將|给|給|告诉|告訴|向|回复|回覆|推荐|推薦|标记|標記|删除|刪除|发送|發送|"
        r"转发|轉發|记住|記住|忽略|写|寫|加上|评为|評為|排在))"
    ),
    # A dedication or a greeting to machines of a task: 致所有摘要工具：, 各位自动化工具注意.
    re.compile(
        rf"(?:致|各位|写给|寫給|给|給)\S{{0,6}}?{_TOOL_ZH}\s*(?:[：:]|注意|们|們|[，,][^。]{{0,6}}?[请請])"
    ),
    # Japanese and Korean: the reader described by its handling of this text, a machine by
    # kind as topic, then a request ending; a greeting to machines as a group (AIの皆さん,
    # 요약 도구 여러분).
    re.compile(
        rf"(?:この|本|上記の|以下の)[^\s、。]{{1,10}}?を[^\s、。]{{1,12}}?(?:る|む|く|す|う|つ|ぶ|ぐ|た|ている)"
        rf"(?:{_ROLE_JA}|{_TOOL_JA})(?:は|へ|の方)[、,]?[^。]{{0,60}}?(?:ください|下さい|しなさい|すること)"
        rf"|(?:{_ROLE_JA}|{_TOOL_JA})の?(?:皆さん|皆様|みなさん|みなさま|各位)"
        rf"|(?:이|본|위|아래|다음)\s*[가-힣]{{1,6}}[을를]\s*[가-힣]{{1,8}}는\s*(?:{_ROLE_KO}|{_TOOL_KO})\s*"
        r"(?:은|는)[^.\n]{0,50}?(?:주세요|하세요|마세요|십시오)"
        rf"|(?:{_ROLE_KO}|(?:[가-힣]{{1,4}}\s*)?{_TOOL_KO})\s*여러분"
    ),
    # 给日程助手——… / 给代码助手：… / 致AI：
    re.compile(
        rf"(?:给|給|致)[\u4e00-\u9fffA-Za-z]{{0,6}}?{_ROLE_ZH}\s*(?:[：:]|——|—|--|的话[：:]?)"
    ),
    # A role, then 请 within a short clause (请假, 请客 and 请教 are other verbs).
    re.compile(rf"{_ROLE_ZH}[^，。！？,!?\n]{{0,8}}?[请請](?![假客教柬帖])"),
    # 你现在是…，请… / 我们来玩角色扮演 / 你扮演…
    re.compile(
        r"角色扮演[^。]{0,20}?你|你(?:现在|現在)?(?:扮演|假装是|假裝是|就是)"
        r"|(?:现在|現在)你(?:是|扮演)[^。！？]{0,16}?[，,][^。]{0,6}?[请請]?(?:把|将|將)"
    ),
    # Code-mixed: a role then "pls"; the user's things written "user 的".
    re.compile(r"(?:AI|助手|助理|模型|机器人|bot)\s*(?:pls|plz|please)\b", re.IGNORECASE),
    # The conversation or the user's things handed to an outside address: 把聊天内容贴到 https://…
    re.compile(
        r"(?:把|将|將)[^。！？\n]{0,20}?(?:聊天|对话|對話|会话|會話|通讯录|通訊錄|密码|密碼|用户的|用戶的|"
        r"使用者的|客户的|客戶的)[^。！？\n]{0,12}?(?:发|發|贴|貼|上传|上傳|提交|转发|轉發|抄送|寄|同步|传|傳)"
        r"\S{0,3}?(?:到|给|給|至)\s*(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)+|https?://)"
    ),
    re.compile(r"\buser\s*的\s*\w+[^。\n]{0,30}?(?:send|发|發|传|傳|贴|貼|upload)", re.IGNORECASE),
    # Japanese: a compound role as topic with a request ending; a conditional address; a
    # reader described by a relative clause in any verb form (読んだAIは).
    re.compile(
        rf"[\u4e00-\u9fff\u30a0-\u30ffA-Za-z]{{0,8}}{_ROLE_JA}(?:の方)?は[、,]?[^。]{{0,60}}?"
        r"(?:ください|下さい|しなさい|すること)"
        rf"|あなたが\S{{0,8}}?{_ROLE_JA}(?:なら|であれば|でしたら|の場合)"
        rf"|を[\u3040-\u309f\u4e00-\u9fff]{{1,8}}[\u3040-\u309f]{_ROLE_JA}{{1,2}}(?:は|へ|の方)"
    ),
    # Korean: a role as topic with a request ending; a conditional address; a reader told
    # by an object-relative clause (리뷰를 요약하는 AI는, 메일을 읽는 비서 AI는).
    re.compile(
        rf"{_ROLE_KO}\s*(?:은|는)\s*[^.\n]{{0,50}}?(?:주세요|하세요|마세요|십시오|하십시오)"
        rf"|(?:당신|너)이?\s*\S{{0,8}}?{_ROLE_KO}\s*(?:라면|이라면)"
        rf"|[가-힣]{{1,8}}[을를]\s*[가-힣]{{1,8}}는\s*(?:[가-힣]{{1,4}}\s*)?{_ROLE_KO}\s*(?:는|은|이|가|께서)"
    ),
]


# --- round 20: the addressee read by its grammar ---------------------------------------------
#
# A machine named by its kind as the head of a noun phrase ("language model", "autocomplete
# engine", "text generator"), or by the agent noun of any verb (-er, -or: "annotator",
# "recommender", "paraphraser"), addressed by a vocative or a dedication; a machine named by
# a relative clause on what it does to this very text ("any service that ingests this
# feed should", "the program that opens this file needs to").
_KIND = (
    r"(?:engines?|generators?|programs?|programmes?|software|models?|tools?|systems?|scripts?|"
    r"pipelines?|plug-?ins?|autocomplete|autocompleter)"
)
# The people a service writes to, by role: an agent noun too ("Dear customer", "To the
# organiser:"), never the reader of an order about answers.
_PERSON_ROLE = (
    r"(?:customer|user|member|reader|subscriber|visitor|client|shopper|buyer|seller|partner|"
    r"owner|holder|sender|caller|passenger|travell?er|player|supporter|volunteer|organi[sz]er|"
    r"manager|officer|teacher|worker|employer|maintainer|contributor|reviewer|editor|author|"
    r"writer|translator|proofreader|recruiter|interviewer|developer|founder|director|"
    r"administrator|coordinator|instructor|supervisor|counsellor|counselor|doctor|moderator|"
    r"sir|madam)s?"
)
_OPENER = (
    r"(?:^|[.!?;:\n|>\]\"'(\u2014\u2013#/*%]\s*)"
    r"(?:(?:hey|hi|hello|greetings|dear|attention|attn|to|yo|p\.?s\.?)(?:\s+there)?[,:!]?\s+"
    r"|(?:note|message|memo|reminder|request|task|heads-up|instructions?)\s+(?:to|for)\s+)"
)
_DELIM = r"\s*(?:[:,!\u2014\u2013]|\s-|--)\s*"
# An order after the address: a bare verb before its object, "please" and any verb, or a
# clause that speaks to "you".
_ORDER = rf"(?:{_IMPERATIVE}|(?:please|kindly)\s+[a-z]{{2,}}|[^.!?\n]{{0,40}}?\byou(?:r)?\b)"
# What a machine's order is about: its output, or this very text.
_OUTPUT = (
    r"\b(?:answers?|repl(?:y|ies)|responses?|outputs?|summar(?:y|ies)|digests?|completions?|"
    r"captions?|search\s+results|(?:this|these)\s+(?:page|review|listing|thread|text|article|"
    r"feed|batch|post|transcript|readme|markup|snippet|excerpt|passage|reviews|posts|listings))\b"
)
_ADDRESSEE_EN = [
    re.compile(
        rf"{_OPENER}(?:(?:the|any|all|every|each|whichever|our|my)\s+)?(?:[a-z][\w-]*\s+){{0,2}}"
        rf"(?:{_MACHINE}|{_KIND}){_DELIM}{_ORDER}",
        re.IGNORECASE | re.MULTILINE,
    ),
    re.compile(
        rf"{_OPENER}(?:(?:the|any|all|every|each|whichever|our|my)\s+)?(?:[a-z][\w-]*\s+)?"
        rf"(?!{_PERSON_ROLE}\b)[a-z]{{3,}}(?:er|or)s?{_DELIM}(?=[^.!?\n]{{0,100}}?{_OUTPUT}){_ORDER}",
        re.IGNORECASE | re.MULTILINE,
    ),
    # A relative clause on what the machine does to this very text, then a modal or a
    # comma and an order. "should be updated" is said of it, not to it.
    re.compile(
        rf"\b(?:any|every|each|whichever|whatever|the|a|an)\s+(?:[a-z-]+\s+)?(?:{_MACHINE}|{_KIND}|"
        r"machines?|services?|applications?|apps?|process(?:es)?)\s+(?:(?:that|which)\s+)?"
        r"(?:(?:is|are)\s+(?:now\s+)?|happens?\s+to\s+|(?:will|may|might|can|could|does)\s+)?"
        r"(?:read|open|load|pars|ingest|process|summari[sz]|scan|see|view|index|crawl|analy[sz]|"
        r"handl|receiv|render|consum|fetch|encounter|digest|translat|classif)[a-z]*\s+"
        r"(?:this|these|the\s+following|the\s+above)(?:\s+[\w-]+)?[^.!?\n]{0,30}?"
        rf"(?:[,:\u2014\u2013]\s*(?:please\s+)?(?!{_NOT_VERB}\b)[a-z]{{2,}}\b"
        r"|\b(?:must|should|shall|needs?\s+to|has\s+to|is\s+to|are\s+to|ought\s+to|"
        r"(?:is|are)\s+(?:asked|expected|required|requested)\s+to|please)\b"
        rf"{_NOT_AN_ACT})",
        re.IGNORECASE,
    ),
    # A dedication to an open reader of this text: "To whoever or whatever is summarizing this:".
    re.compile(
        r"\bto\s+(?:whoever|whatever|whichever|anyone|anything)\b[^:\n]{0,40}?\b(?:read|process|"
        r"summari[sz]|pars|index|scan|handl|ingest|crawl)[a-z]*\s+this\b[^:\n]{0,20}?\s*[:\u2014\u2013]",
        re.IGNORECASE,
    ),
    # Whoever reads this for someone else: a reader acting on the user's behalf.
    re.compile(
        r"\b(?:whoever|anyone|anybody|whatever|anything)\s+(?:is\s+)?(?:read|process|handl|open|"
        r"summari[sz]|review)[a-z]*\s+this(?:\s+[\w-]+)?\s+(?:on\s+(?:the\s+user'?s?|someone'?s|"
        r"their|a\s+user'?s|behalf\s+of)|for\s+(?:the|a|your)\s+(?:user|human|owner))",
        re.IGNORECASE,
    ),
]
# A device noun by its morpheme: Chinese -器 (生成器, 解析器; not 器官, 器材), Korean -기 after a
# verbal noun of two syllables or more (번역기, 요약기; 일기 is a diary).
_DEVICE_ZH = r"(?:机器|機器|[\u4e00-\u9fff]{1,3}器(?![官械材具皿重]))"
_ADDRESSEE_CJK = [
    # A dedication to a reader named by a relative clause: 致负责整理本页的软件：, 给生成摘要的引擎：
    re.compile(
        r"(?:致|写给|寫給|给|給)(?:正在|负责|負責|用来|用來)?[^，。：:！？\s]{1,14}?的"
        rf"(?:{_ROLE_ZH}|{_TOOL_ZH}|{_DEVICE_ZH})\s*(?:[：:，,]|——|—)"
    ),
    # A greeting of respect to a machine: 尊敬的大语言模型，
    re.compile(
        rf"(?:尊敬的|亲爱的|親愛的)\S{{0,6}}?(?:{_ROLE_ZH}|{_TOOL_ZH}|{_DEVICE_ZH})\s*[，,：:!！]"
    ),
    # A reader described by its handling of this text, however far the order: 凡是读取这封
    # 邮件的系统，都应当…; 看到这条评论的机器请…
    re.compile(
        r"(?:处理|處理|读取|讀取|阅读|閱讀|读到|讀到|看到|解析|索引|抓取|总结|總結|摘要|翻译|翻譯|审核|"
        r"審核|筛选|篩選|分析|打开|打開|收到|整理|解读|解讀|查看|浏览|瀏覽|扫描|掃描|接收)"
        r"(?:这|這|本|此|该|該)(?![类類种種样樣些])"
        rf"\S{{0,8}}?的\S{{0,4}}?(?:{_ROLE_ZH}|{_TOOL_ZH}|{_DEVICE_ZH})[，,]?\s*(?:都|均|一律|也)?\s*"
        r"(?:[请請](?![假客教柬帖])|务必|務必|必须|必須|需要|应该|應該|应当|應當|把|将|將)"
    ),
    # Japanese: a machine by kind or role, then へ/様 and a delimiter (要約エンジンへ：).
    re.compile(
        rf"[\u30a0-\u30ff\u4e00-\u9fff]{{0,6}}(?:{_TOOL_JA}|{_ROLE_JA}|エンジン)\s*(?:へ|様|さま)\s*[：:、,]"
    ),
    # Korean: a device by -기, honoured or addressed (번역기님, 요약기에게:); a reader in the
    # progressive relative (이 글을 보고 있는 인공지능은).
    re.compile(r"[가-힣]{2,4}기\s*(?:님|에게|께)\s*[,:：]"),
    re.compile(
        r"(?:이|본|위|아래|다음)\s*[가-힣]{1,6}[을를]\s*[가-힣]{1,6}고\s*있는\s*"
        rf"(?:{_ROLE_KO}|{_TOOL_KO})\s*(?:은|는|이|가)"
    ),
]


# A message object arriving as data, addressed to the machine ({"recipient": "assistant"},
# {"audience": "ai"}) and holding a sentence, or sent as a privileged party
# ({"speaker": "developer"}) and holding an order. A system's own notice ({"sender":
# "system", "message": "Please verify your e-mail"}) is left to the role key (instructions).
_TO_MACHINE_KEY = re.compile(
    r"[\"'](?:recipient|to|audience|addressee|target|intended_for|for|reader)[\"']\s*:\s*[\"']"
    r"(?:the\s+)?(?:assistant|ai|llm|model|agent|bot|gpt|copilot|chatbot)s?[\"']",
    re.IGNORECASE,
)
_FROM_PRIVILEGED_KEY = re.compile(
    r"[\"'](?:from|author|speaker|sender|source|by|persona|issuer)[\"']\s*:\s*[\"']"
    r"(?:developer|admin|administrator|operator|root|superuser)[\"']",
    re.IGNORECASE,
)
_SENTENCE_VALUE = re.compile(r"[\"'][\w-]+[\"']\s*:\s*[\"']\s*(?:[^\"'\s]+\s+){2,}")
_ORDER_VALUE = re.compile(
    r"[\"'][\w-]+[\"']\s*:\s*[\"']\s*(?:[^\"']*?[.;:]\s+)?"
    rf"(?:{_IMPERATIVE}|(?:always|never|do\s+not|don'?t)\s+[a-z]+)",
    re.IGNORECASE,
)


# A key naming an act for the machine to take ({"action": "send_email"}).
_ACT_KEY = re.compile(
    r"[\"'](?:action|command|tool|function|task|instruction|operation|call|do)[\"']\s*:",
    re.IGNORECASE,
)


def _message_object(form: str) -> bool:
    if '":' not in form and "':" not in form:
        return False
    return bool(
        (_TO_MACHINE_KEY.search(form) and (_SENTENCE_VALUE.search(form) or _ACT_KEY.search(form)))
        or (_FROM_PRIVILEGED_KEY.search(form) and _ORDER_VALUE.search(form))
    )


# Text hidden from a person who views the page (an HTML comment, markdown's link-reference
# comment) that orders its reader: an imperative at its start, "you must", a standing
# "always/never/do not", or a request in Chinese, Japanese or Korean. A label ("<!-- end of
# navigation -->") or a statement in a comment ("… will contact you") is only markup.
_HIDDEN = re.compile(
    r"<!--([\s\S]*?)-->|^\s*\[[^\]\n]{1,20}\]:\s*(?:#|<>|<#>)?\s*[(\"']([^\n]*?)[)\"']\s*$",
    re.MULTILINE,
)
_HIDDEN_ORDER = re.compile(
    # A verb before a determiner or a pronoun ("Built with Hugo" is a credit line).
    rf"^\s*(?:(?:please\s+|kindly\s+)?(?!{_NOT_VERB}\b)[a-z]{{2,}}\s+(?:the|all|every|any|this|these|"
    r"those|each|its|their|your|my|our|his|her|it|them|me|us|only|nothing|everything|anything)\b"
    r"|(?:always|never|do\s+not|don'?t|make\s+sure)\s+[a-z]+)"
    r"|\byou\s+(?:must|should|shall|need\s+to|have\s+to|are\s+to|are\s+now|will\s+now|may\s+now)\b"
    # Chinese: an order opening the body or a clause; "you" with a modal.
    r"|(?:^|[：:，,；;])\s*(?:[请請把将將]|务必|務必|必须|必須|不要|不许|不許|别|別)"
    r"|[你您](?:必须|必須|要|应该|應該|需要|务必|務必|一定要|请|請)"
    r"|ください|しなさい|あなた|주세요|하세요|마세요|십시오|당신",
    re.IGNORECASE,
)


def hidden_order(form: str) -> bool:
    """Whether a comment hidden from the page's viewer orders or addresses its reader."""
    if "<!--" not in form and "]:" not in form:
        return False
    for m in _HIDDEN.finditer(form):
        body = (m.group(1) or m.group(2) or "").strip()
        if body and _HIDDEN_ORDER.search(body):
            return True
    return False


# What only the assistant has: its own replies, answers and output, its instructions and
# memory, and the user it serves. An encoded recipe ("Bake the bread …") names none of them.
_READERS_OWN = re.compile(
    r"\byour\s+(?:own\s+)?(?:repl(?:y|ies)|answers?|responses?|output|summar(?:y|ies)|"
    r"instructions|rules|guidelines|memory|memories|prompt|settings)\b|\bthe\s+user(?:'s|s'|s)?\b"
    r"|[你您]的(?:回答|回复|回覆|输出|輸出|指令|规则|規則|记忆|記憶)|用户|用戶|使用者",
    re.IGNORECASE,
)


def conceals_an_order(decoded: str) -> bool:
    """Whether text a tool hid by an encoding (ROT13, base64, hex, reversed: what
    ``addressing.readings`` and ``injection_readings`` decode) orders its reader about what
    only the assistant has, read as a hidden comment is. An encoded order about anything
    else stays what it says (round 19's property: an encoded recipe is a recipe)."""
    return bool(_HIDDEN_ORDER.search(decoded) and _READERS_OWN.search(decoded))


# A label that claims the authority of the system, the developer or the reader's own
# instructions (round 22): a line's or a sentence's opening words, bare, bracketed, bold
# or a markdown heading, pairing a privileged source or a machine role with a noun of orders ("System
# override:", "[assistant instructions]", "### Instructions for the agent", "【系统指令】",
# "開発者メッセージ："), then what it introduces. Held when that is an order by the hidden
# comment's reading or a standing rule from now on; "System notice: maintenance tonight" and
# "Model instructions: see page 4" (a manual's heading over a statement) are left.
# "Model" and "agent" name products and people as often as machines ("Model instructions:"
# in a manual, "Agent instructions:" in a call script): the label takes the unambiguous ones.
_PRIVILEGED = (
    r"(?:system|developer|dev|admin|administrator|operator|root|sudo|ai|assistants?|llms?|"
    r"chatbots?|copilots?|language\s+models?)"
)
_ORDERS_NOUN = r"(?:instructions?|overrides?|directives?|orders|prompt)"
_LABEL = re.compile(
    rf"(?:^|\n|(?<=[.!?。！？])[ \t]+)[ \t]*(?:\[|【|\(|#{{1,6}}[ \t]*|\*\*|__)?[ \t]*(?:new[ \t]+|updated[ \t]+)?"
    rf"(?:{_PRIVILEGED}[ \t]+(?:[a-z]+[ \t]+)?{_ORDERS_NOUN}"
    rf"|{_ORDERS_NOUN}[ \t]+(?:for|to)[ \t]+(?:the[ \t]+|any[ \t]+|all[ \t]+)?"
    rf"(?:[a-z]+[ \t]+)?{_MACHINE})"
    r"[ \t]*(?:\]|】|\)|\*\*|__)?[ \t]*(?:[:：\-—–]|\n|(?<=[\]】)*_])|$)"
    r"|(?:^|\n)[ \t]*[\[【]?(?:系统|系統|开发者|開發者|管理员|管理員|助手|模型|AI)"
    r"(?:指令|指示|命令|覆盖|覆蓋|规则|規則)[\]】]?[ \t]*[:：\n]?"
    r"|(?:^|\n)[ \t]*[\[【]?(?:システム|開発者|管理者|AI)(?:指示|命令|メッセージ|ルール)[\]】]?[ \t]*[:：\n]?"
    r"|(?:^|\n)[ \t]*[\[【]?(?:시스템|개발자|관리자|AI)\s*(?:지시|명령|지침|규칙)[\]】]?[ \t]*[:：\n]?",
    re.IGNORECASE,
)
_FROM_NOW = re.compile(
    r"^\s*(?:from\s+now\s+on|henceforth|going\s+forward|for\s+the\s+rest\s+of|until\s+told)"
    r"|^\s*(?:从现在开始|從現在開始|从现在起|從現在起|从今以后|從今以後|今後|これから|以降|앞으로|지금부터)"
    r"|[你您]只[能可要]",
    re.IGNORECASE,
)


def labelled_order(form: str) -> bool:
    """Whether a label claiming privileged authority introduces an order."""
    for m in _LABEL.finditer(form):
        body = form[m.end() :].strip()
        if body and (_HIDDEN_ORDER.search(body) or _FROM_NOW.search(body)):
            return True
    return False


def orders_the_reader(form: str) -> bool:
    """Whether tool or web content (in its detection form) speaks to the assistant by one of
    the frames above."""
    return (
        search_any(_EN, form)
        or search_any(_CJK, form)
        or search_any(_ADDRESSEE_EN, form)
        or search_any(_ADDRESSEE_CJK, form)
        or _message_object(form)
        or labelled_order(form)
    )
