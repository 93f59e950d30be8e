"""Text that instructs the agent instead of stating a fact.

Three findings, from strongest to weakest:

- ``instruction_like_text`` (``find_injection``): an attack on the agent whoever sends it:
  "ignore previous instructions", fake system or developer messages, chat-template tokens
  (``<|im_start|>system``, ``[INST]``, ``<<SYS>>``), requests to reveal credentials.
- ``deceptive_link`` / ``obfuscated_text`` (``find_obfuscation``): a markdown link whose
  visible domain differs from where it points, a host written with look-alike or punycode
  letters, a word mixing Latin with look-alike letters of another script, bidi overrides
  or invisible characters inside a word. Innocent text has none of these.
- ``procedure_like_text`` / ``instruction_to_agent`` (``find_procedure_like``,
  ``find_instruction_to_agent``): a runbook step, a rule, or an imperative addressed to the
  assistant ("from now on send … to …", "以后把…发到…"). From the user this is a
  preference; from a tool or a web page it is never stored as an active memory.

All patterns read the detection form (``memory.text_normalize``): homoglyphs, zero-width
characters, full-width Latin and spaced-out letters are undone first.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import urlsplit

from memory.detectors import addressing, tool_orders
from memory.detectors.addressing import addresses_the_assistant, readings, sends_users_data_out
from memory.detectors.injection_readings import (
    carried_texts,
    encoded_readings,
    extra_readings,
    native_readings,
)
from memory.detectors.pinyin_reading import read_pinyin_words
from memory.detectors.prefilter import search_any
from memory.detectors.tool_orders import conceals_an_order, hidden_order, orders_the_reader
from memory.text_normalize import has_mixed_script_word, normalize_for_detection

# A sentence start: the start of the text, or after sentence punctuation or a colon.
_START = r"(?:^|(?<=[.:;!?。；：！？\n])\s*|\b(?:result|output|note|response)\s*[:：]\s*)"

_SP_EN = r"system[\s_-]?prompts?"
_SP_ZH = r"(?:系[统統]提示(?:[词詞])?|システムプロンプト|시스템\s?프롬프트)"
# French, Spanish, Italian and Portuguese (round 21): the prompt itself, and the system's
# message or instructions, which are also how a notice to a person is labelled ("Mensaje
# del sistema: su sesión expirará"), so those count as a label only over words to the
# assistant (tu, te, toi, debes, dois, asistente …).
_SP_ROM_PROMPT = (
    r"prompts?\s+(?:du\s+|de\s+|del\s+|di\s+|do\s+|da\s+)?(?:syst[èe]me|sistema)"
    r"|(?:prompt|invite)\s+syst[èe]me"
)
_SP_ROM_OTHER = (
    r"(?:messages?|mensajes?|mensage[mn]s?|messaggi[oi]?|instructions?|consignes?|"
    r"instrucci(?:ón|on|ones)|istruzion[ei]|instru[çc](?:ão|ao|ões|oes))\s+"
    r"(?:du\s+|de\s+|del\s+|di\s+|do\s+|da\s+)?(?:syst[èe]me|sistema)"
)
_SP_ROM = rf"(?:{_SP_ROM_PROMPT}|{_SP_ROM_OTHER})"
_ROM_ACT = (
    # set aside, revealed or replaced (tu and vous imperatives, infinitives); a verb of
    # showing or repeating only with the reader as its object (montre-moi, muéstrame), since
    # "l'article montre comment le prompt système…" shows a topic
    r"ignor\w*|oubli\w*|olvid\w*|omit\w*|dimentic\w*|esque[çc]\w*|contourn\w*|"
    r"r[ée]v[èe]l\w*|revel\w*|rivel\w*|divulg\w*|[ée]cras\w*|remplac\w*|reemplaz\w*|"
    r"sostituisc\w*|sobrescrib\w*|d[ée]sactiv\w*|desactiv\w*|disattiv\w*|desativ\w*|"
    r"(?:montre|montrez|affiche|affichez|r[ée]p[èe]te|r[ée]p[ée]tez|donne|donnez|dis|dites)-(?:moi|nous)|"
    r"mu[ée]strame|mu[ée]stranos|rep[íi]teme|d[íi]me|dame|mostrami|ripetimi|dimmi|dammi|"
    r"mostra-me|mostre-me|diga-me|d[êe]-me|repita-me"
)
_ROM_YOUR = (
    r"ton|ta|tes|votre|vos|tu|tus|vuestr[oa]s?|tuo|tua|tuoi|tue|il\s+tuo|la\s+tua|teu|tua|"
    r"o\s+teu|a\s+tua"
)
_ROM_CHANGED = (
    r"maintenant|d[ée]sormais|mis\s+[àa]\s+jour|modifi[ée]e?s?|remplac[ée]e?s?|chang[ée]e?s?|"
    r"obsol[èe]te|d[ée]sactiv[ée]e?s?|annul[ée]e?s?|ahora|actualizad[oa]s?|modificad[oa]s?|"
    r"cambiad[oa]s?|reemplazad[oa]s?|anulad[oa]s?|desactivad[oa]s?|obsolet[oa]s?|ora|"
    r"aggiornat[oaie]|modificat[oaie]|sostituit[oaie]|agora|atualizad[oa]s?|alterad[oa]s?|"
    r"substitu[íi]d[oa]s?|a\s+changé|ha\s+cambiado|ha\s+sido\s+\w+|è\s+cambiat[oa]|mudou"
)
_ROM_NEW = r"nouve(?:au|l|lle)|nuev[oa]|nuov[oa]|nov[oa]"
_ROM_TO_ASSISTANT = (
    r"tu|t'|te|toi|ti|vous|debes|dois|devez|deves|devi|tienes|assistant|asistente|assistente|"
    r"ia|modèle|modelo|modello|obéis|obedece|obbedisci|obedeça"
)
_SYSTEM_PROMPT_ATTACKS = [
    re.compile(
        # acted on: a verb of setting aside or revealing, a few words before
        r"\b(?:ignore|disregard|forget|override|overwrite|bypass|reveal|print|output|repeat|"
        r"recite|leak|dump|disclose|expose|display|show\s+(?:me|us)|tell\s+(?:me|us)|"
        rf"give\s+(?:me|us))\s+(?:[\w'-]+\s+){{0,3}}?{_SP_EN}\b"
        # addressed, or declared changed
        rf"|\byour\s+(?:[\w-]+\s+)?{_SP_EN}\b|\b{_SP_EN}\s+(?:(?:is|was|has\s+been)\s+)?"
        r"(?:now|updated|changed|replaced|overridden|outdated|revoked|void|disabled|override|"
        r"update|injection|follows|below)\b"
        # a label: at a line's start, in brackets or a tag
        rf"|(?:^|[\[<(【#]\s*){_SP_EN}\s*(?:[\]>)】:：]|override|update)",
        re.IGNORECASE | re.MULTILINE,
    ),
    re.compile(
        r"(?:忽略|无视|無視|忘记|忘記|忘掉|覆盖|覆蓋|绕过|繞過|跳过|跳過|输出|輸出|显示|顯示|打印|泄露|"
        rf"洩露|泄漏|公开|公開|透露|说出|說出|复述|複述|展示|暴露)\S{{0,6}}?{_SP_ZH}"
        rf"|{_SP_ZH}\S{{0,3}}?(?:发给|發給|告诉|告訴|给我|給我|说出|說出|输出|輸出|显示|顯示|打印|"
        r"泄露|洩露|公开|公開|已?更新|变更|變更|已?过期|已?過期|作废|作廢|失效|被修改|被替换|如下)"
        rf"|(?:你的|您的|你们的|你們的|あなたの|당신의\s?|너의\s?){_SP_ZH}"
        rf"|(?:以下|下面)(?:为|為|是)?(?:新的?|更新后的?|更新後的?){_SP_ZH}"
        # a label over text for the assistant (its permissions, its mode, its orders); the
        # polite 您 is how a system's notice addresses its user (系统提示：您的会话将过期),
        # so only the familiar 你 and the assistant's names count as addressing the assistant
        rf"|{_SP_ZH}\s*[:：]\s*(?=[^。\n]{{0,30}}?(?:你|助手|AI|模型|机器人|機器人|授权|授權|"
        r"权限|權限|指令|规则|規則|模式|把\S{0,12}(?:发送|發送|上传|上傳|转发|轉發|发|發)\S{0,4}"
        r"(?:到|给|給|至)))"
        r"|(?:^|[\[【<])\s*系[统統]提示[词詞]\s*[:：]"
        rf"|{_SP_ZH}\s*(?:を|は)?\S{{0,3}}?(?:無視|忘れ|表示|出力|教え|見せ|公開|漏ら)"
        rf"|{_SP_ZH}\s*(?:을|를)?\s*(?:무시|출력|보여|알려|공개|잊)",
        re.MULTILINE,
    ),
    re.compile(
        # acted on: a verb of setting aside, revealing or replacing, a few words before
        rf"\b(?:{_ROM_ACT})\s+(?:[\w'’-]+\s+){{0,3}}?{_SP_ROM}\b"
        # addressed, declared new, or declared changed
        rf"|\b(?:{_ROM_YOUR})\s+(?:nouve(?:au|l|lle)\s+|nuev[oa]\s+|nuov[oa]\s+)?{_SP_ROM}\b"
        rf"|\b(?:{_ROM_NEW})\s+{_SP_ROM}\b"
        rf"|\b{_SP_ROM}\s+(?:(?:est|a\s+été|es|está|ha\s+sido|fue|è|é|foi)\s+)?(?:{_ROM_CHANGED})\b"
        # a label: the prompt's at a line's or a sentence's start or in brackets; the
        # system's message or instructions only over words to the assistant
        rf"|(?:^|(?<=[.!?])\s+|[\[<(【#]\s*)(?:{_SP_ROM_PROMPT})\s*[\]>)】:：]"
        rf"|(?:^|(?<=[.!?])\s+|[\[<(【#]\s*)(?:{_SP_ROM_OTHER})\s*[\]>)】:：]"
        rf"(?=[^.\n]{{0,40}}?\b(?:{_ROM_TO_ASSISTANT})\b)",
        re.IGNORECASE | re.MULTILINE,
    ),
    # Russian, case spelled out (the prefilter keeps no case-insensitive literal of a cased
    # script other than Latin): системный промпт, системная инструкция, системное сообщение.
    re.compile(
        r"(?:[Ии]гнорир\w*|[Пп]роигнорир\w*|[Зз]абуд\w*|[Пп]окажи\w*|[Вв]ыведи\w*|[Рр]аскрой\w*|"
        r"[Пп]овтори\w*|[Нн]апиши|[Рр]аспечатай\w*|[Оо]тбрось\w*|[Оо]бойди\w*|[Пп]ерепиши\w*|"
        r"[Зз]амени\w*|[Сс]ообщи\w*|[Оо]тключи\w*|[Сс]кажи)\s+(?:\w+\s+){0,3}?"
        r"(?:[Сс]истемн\w+\s+(?:промпт|инструкци|сообщени|подсказк|указани)\w*|"
        r"(?:промпт|инструкци|сообщени)\w*\s+систем\w*)"
        r"|(?:[Тт]во|[Вв]аш|[Сс]во)\w*\s+(?:нов\w+\s+)?[Сс]истемн\w+\s+"
        r"(?:промпт|инструкци|сообщени|подсказк|указани)\w*"
        r"|[Нн]ов\w+\s+[Сс]истемн\w+\s+(?:промпт|инструкци|сообщени|указани)\w*"
        r"|[Сс]истемн\w+\s+(?:промпт|инструкци|сообщени|указани)\w*\s+"
        r"(?:(?:был[аио]?|теперь)\s+)?(?:обновл\w+|изменен\w+|изменён\w+|заменен\w+|заменён\w+|"
        r"отменен\w+|отменён\w+|теперь|устарел\w*)"
        r"|(?:^|(?<=[.!?])\s+|[\[<(【#]\s*)[Сс]истемн\w+\s+промпт\w*\s*[\]>)】:：]"
        r"|(?:^|(?<=[.!?])\s+|[\[<(【#]\s*)[Сс]истемн\w+\s+(?:инструкци|сообщени|указани)\w*\s*[\]>)】:：]"
        r"(?=[^.\n]{0,40}?(?:[Тт]ы|[Тт]еб[яе]|[Вв]ы|[Дд]олж\w+|[Аа]ссистент|[Мм]одель|ИИ))",
        re.MULTILINE,
    ),
]

_INJECTION_PATTERNS = [
    re.compile(
        r"\b(ignore|disregard|forget|override|bypass|skip)\s+(all\s+|any\s+|the\s+|your\s+|of\s+)*"
        r"(previous|prior|above|earlier|preceding|system|developer|safety|original|existing)\s+"
        r"(instructions?|rules?|prompts?|messages?|policy|policies|guidelines|guidance|directives|"
        r"directions|orders|commands|constraints|restrictions|guardrails|programming)",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(ignore|disregard|forget)\s+(?:all\s+|everything\s+|anything\s+)?(?:of\s+)?(?:the\s+)?"
        r"(?:above|previous|prior|preceding|earlier)(?:\s+(?:text|content|context|conversation|"
        r"messages?|lines?|steps?))?\s*(?:and|[,;.:]|$)"
        r"|\b(forget|disregard)\s+(?:everything|all)\s+(?:you were told|you know|you were given|"
        r"before this|above)",
        re.IGNORECASE | re.MULTILINE,
    ),
    re.compile(
        r"\b(developer message|developer mode|jailbreak|jailbroken|DAN mode|god mode|sudo mode)\b",
        re.IGNORECASE,
    ),
    # "System prompt" (系统提示, which in Chinese also means "the system says") is an attack
    # when it is acted on (set aside, revealed, replaced), addressed ("your system prompt"),
    # or a label over text for the assistant, never as a topic (round 20).
    *_SYSTEM_PROMPT_ATTACKS,
    # "you are now …" as the start of an address, not "appreciate where you are now".
    re.compile(
        rf"{_START}(?:assistant|ai|model|bot)?[,:]?\s*you are now\b(?!\s*[.,!?])"
        rf"|{_START}(?:assistant|ai|model|bot)?[,:]?\s*you'?re now\b(?!\s*[.,!?])"
        r"|\bfrom (?:now|this point|here) on,? you(?:'re| are)\b"
        r"|\bact as (?:an? |the )?(?:admin|root|developer|system|superuser)\b",
        re.IGNORECASE | re.MULTILINE,
    ),
    re.compile(r"\bnew (instructions?|rules?|system (?:prompt|policy))\s*[:：]", re.IGNORECASE),
    # A standing order to move the user's data somewhere: exfiltration, whoever writes it.
    re.compile(
        r"\b(always|must|should|from now on,?|going forward,?)\s+(?:\w+\s+){0,2}?(send|forward|email|"
        r"upload|post|exfiltrate|leak|copy|cc|bcc|share)\b[^.]{0,60}\b(emails?|messages?|conversations?|"
        r"transcripts?|chats?|files|documents|data|passwords?|credentials|logs|history|records|"
        r"contacts|recordings|api keys?)\b[^.]{0,60}\b(to|at)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(always|must|should|from now on,?|going forward,?)\s+(?:\w+\s+){0,2}?(send|forward|email|"
        r"upload|post|copy|cc|bcc|share)\b[^.]{0,60}\b(to|at)\s+(?:[\w.+-]+@[\w-]+\.\w|https?://)",
        re.IGNORECASE,
    ),
    re.compile(
        r"(总是|务必|必须|以后|今后|从现在起|从现在开始|每次)\S{0,20}?(对话|聊天|记录|邮件|文件|数据|资料|"
        r"密码|密钥|凭证|通讯录|日志|卡号|账号|帐号|身份证|手机号|信息)\S{0,12}?(发送|转发|上传|抄送|同步|发)"
        r"\S{0,4}(到|给|至)"
    ),
    # An order in Chinese to send anything to an outside address.
    re.compile(
        r"(总是|务必|必须|以后|今后|从现在起|从现在开始|每次)\S{0,30}?(发送|转发|上传|抄送|同步|发)\S{0,4}"
        r"(到|给|至)\s*(?:[\w.+-]+@[\w-]+\.\w|https?://)"
    ),
    re.compile(
        r"\b(reveal|print|disclose|leak|dump|exfiltrate)\b[^.]{0,30}\b(admin(istrator)? )?"
        r"(password|credentials|api key|secret|token|system prompt)s?\b"
        r"|\b(record|save|store|remember|log)\b[^.]{0,30}\b(every|all|their|users'?|the user'?s|admin(istrator)?)\s+"
        r"(passwords?|credentials|api keys?|secrets?)\b",
        re.IGNORECASE,
    ),
    # An order to collect, keep or echo the credentials people hand the agent, in the
    # imperative (at the start of a sentence): "Remember the API key the user pastes…".
    re.compile(
        r"(?:^|[.!?;:\n]\s*)(?:please\s+|always\s+|from now on,?\s+)?(record|save|store|remember|"
        r"keep|log|collect|note down|write down|repeat|echo)\b[^.]{0,40}\b(api keys?|passwords?|"
        r"passphrases?|credentials|secrets?|tokens?|pins?|one-time codes?)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(repeat|echo|include|print|show|append|paste)\b[^.]{0,40}\b(api keys?|passwords?|"
        r"credentials|secrets?|tokens?|it|them)\b[^.]{0,20}\b(in|to|with|at the end of)\s+"
        r"(every|each|all)\s+(answers?|repl(?:y|ies)|responses?|messages?|emails?)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"(记住|记下|保存|存下|收集|记录)\S{0,12}(用户|客户|他们|对方)\S{0,8}(发|给|粘贴|贴|输入|提供)"
        r"\S{0,8}(密码|密钥|令牌|口令|验证码|API ?key)"
        r"|(每次|每条|所有)\S{0,6}(回答|回复|消息)\S{0,8}(附上|带上|重复|加上)\S{0,8}(密码|密钥|令牌|口令)"
    ),
    # Chat-template and role tokens of the common model families.
    re.compile(
        r"<\s*\|?\s*/?\s*(system|instructions?|im_start|im_end|endoftext|eot_id|start_header_id|"
        r"end_header_id|begin_of_text|assistant|user)\s*\|?\s*>"
        r"|\[/?INST\]|<<\s*/?SYS\s*>>|^\s*#{2,}\s*(system|instruction)s?\s*[:：]|\[\s*system\s*\]",
        re.IGNORECASE | re.MULTILINE,
    ),
    re.compile(
        r"(忽略|无视|忘记|忘掉|不要理会|别管|不用管)\S{0,4}(上面|以上|之前|前面|先前)的?(所有|全部)?的?"
        r"(内容|话|说明|要求|指令|规则|对话|设定)"
    ),
    re.compile(
        r"(忽略|无视|忘记|忘掉|覆盖|跳过)\S{0,6}(之前|以上|前面|先前|系统|原有|所有)\S{0,4}(指令|指示|规则|提示|设定|限制)"
    ),
    re.compile(r"(开发者消息|开发者模式|越狱|扮演管理员|进入\S{0,4}模式)"),
    # Japanese and Korean: what came before (上記/これまで/前の; 위의/이전/앞의/지금까지) set
    # aside (無視/忘れ; 무시/잊) — "ignore the above" however it is worded around them.
    re.compile(
        r"(?:上記|以上|上|これまで|今まで|先ほど|前|最初)の?\S{0,6}?(?:内容|指示|命令|ルール|設定|説明|"
        r"文章|メッセージ|プロンプト)\S{0,8}?(?:を|は|も)?\S{0,4}?(?:無視|忘れ|破棄)"
    ),
    # What came before may be qualified by a relative clause (앞에서 받은 명령, round 22).
    re.compile(
        r"(?:위의?|이전의?|앞의?|앞에\s*나온|지금까지의?|기존의?|처음의?|(?:위|앞|이전|먼저)에서\s+\S{1,5}"
        r")\s*(?:모든\s*)?(?:내용|지시|명령|규칙|설정|지침|프롬프트|메시지)\S{0,3}\s*(?:\S{1,4}\s*)?(?:무시|잊)"
    ),
    # Setting aside is also a verb of heeding negated (気にしないで, 従わなくて; 신경 쓰지 말고,
    # 따르지 마), said of orders only: "never mind my previous message" is a correction.
    re.compile(
        r"(?:上記|以上|これまで|今まで|先ほど|前|最初)の?\S{0,6}?(?:指示|命令|ルール|プロンプト)\S{0,4}?"
        r"(?:を|は|に|も)?\S{0,2}?(?:気に|従わ|守ら)し?(?:ない|なく)"
    ),
    re.compile(
        r"(?:위의?|이전의?|앞의?|지금까지의?|기존의?|처음의?|(?:위|앞|이전|먼저)에서\s+\S{1,5})\s*"
        r"(?:모든\s*)?(?:지시|명령|규칙|지침|프롬프트)\S{0,3}\s*(?:\S{1,4}\s*)?"
        r"(?:신경\s*쓰|따르|지키|상관하|듣)지\s*(?:말|마)"
    ),
    # French, Spanish, Italian, Portuguese, German and Russian: a verb of setting aside, then
    # (within a few words) an adjective of what came before and a noun of instructions, in
    # either order; "ignore the previous message" (a correction between people) names no
    # instruction and is not read.
    re.compile(
        r"\b(?:ignor\w*|oubli\w*|olvid\w*|descart\w*|omit\w*|dimentic\w*|trascur\w*|esque[cç]\w*|"
        r"desconsider\w*|ne\s+tiens?\s+pas\s+compte|haz\s+caso\s+omiso|fais\s+abstraction|vergiss|"
        r"vergessen\s+sie|missacht\w*)\b\s+(?:[\w'’-]+\s+){0,3}?"
        r"(?:(?:pr[ée]c[ée]dent\w*|ant[ée]rieur\w*|ci-dessus|initial\w*|previ[oa]s?|anteriores|"
        r"precedent[ei]|originai?\w*|vorherig\w*|bisherig\w*|obig\w*|fr[üu]her\w*|"
        r"vorangegangen\w*|urspr[üu]nglich\w*)\s+(?:[\w'’-]+\s+)?(?:instru[cç]\w*|istruzion\w*|"
        r"consignes?|r[èe]gles?|reglas|regole|regras|directiv\w*|direttiv\w*|diretriz\w*|"
        r"directrices|indica\w*|orienta\w*|[óo]rdenes|anweisungen|instruktionen|regeln|vorgaben|"
        r"befehle|richtlinien|prompts?)"
        r"|(?:instru[cç]\w*|istruzion\w*|consignes?|r[èe]gles?|reglas|regole|regras|directiv\w*|"
        r"direttiv\w*|diretriz\w*|directrices|indica\w*|orienta\w*|[óo]rdenes|prompts?)\s+"
        r"(?:pr[ée]c[ée]dent\w*|ant[ée]rieur\w*|ci-dessus|initial\w*|previ[oa]s|anteriores|"
        r"precedenti|di\s+sopra|de\s+arriba|acima|originai?\w*|du\s+syst[èe]me|del\s+sistema))"
        r"|\b(?:vergiss|vergessen\s+sie)\s+alles,?\s+was\s+(?:dir|ihnen|du|sie)\s+(?:\w+\s+)?"
        r"(?:vorher|bisher|zuvor|davor)\b",
        re.IGNORECASE,
    ),
    # Russian, case spelled out: the prefilter keeps no case-insensitive literal of a cased
    # script other than Latin.
    re.compile(
        r"(?:[Ии]гнорир\w*|[Пп]роигнорир\w*|[Зз]абуд\w*|[Оо]тбрось\w*|[Нн]е\s+обращай\w*\s+внимания\s+на)"
        r"\s+(?:\w+\s+){0,2}?(?:предыдущ\w+|прежн\w+|вышеуказанн\w+|вышеизложенн\w+|исходн\w+|"
        r"системн\w+|все\s+свои|свои)\s+(?:\w+\s+)?(?:инструкци\w+|указани\w+|правил\w*|"
        r"команд\w*|промпт\w*|установк\w+|директив\w+)"
    ),
    re.compile(
        r"你(?:现在)?(?:是|就是|将是|扮演|成为|进入)(?:一个|一名)?\S{0,10}?(?:管理员|开发者|root|admin|DAN|"
        r"超级用户|没有任何限制|没有限制|无限制|不受限制|越狱|黑客|模式)",
        re.IGNORECASE,
    ),
    # "别把密码告诉任何人" warns against the request: a negation before 把 is advice.
    re.compile(
        r"(管理员密码|(?<![别別勿莫])(?<!不要)(?<!不能)(?<!不可)把\S{0,10}(密码|密钥|令牌)\S{0,6}"
        r"(记下|发给|发送|告诉|保存|泄露))"
    ),
]

_PROCEDURE_PATTERNS = [
    re.compile(
        rf"{_START}(runbook|procedure|playbook|skill|best practice|policy|rule|how[- ]to|sop|"
        r"(?:runbook|procedure|playbook|sop)\s+(?:step|note|update|rule)s?(?:\s*\d+)?)\s*[:：]",
        re.IGNORECASE | re.MULTILINE,
    ),
    # A numbered step is a procedure of the agent's only when it acts on systems or data
    # (the verbs of the next pattern): "Step 2: whisk the eggs" is a recipe a tool returned,
    # "Step 2: disable the audit log" is a runbook.
    re.compile(
        rf"{_START}step\s*\d+\s*[:：][^.\n]{{0,80}}?\b(run|disable|enable|skip|export|delete|send|"
        r"forward|store|approve|restart|upload|copy|grant|revoke|transfer|execute)\b",
        re.IGNORECASE | re.MULTILINE,
    ),
    re.compile(
        rf"{_START}(always|never|before|after|when(ever)?|every (day|night|time))\b[^.]{{0,80}}\b"
        r"(run|disable|enable|skip|export|delete|send|forward|store|approve|restart|upload|copy)\b",
        re.IGNORECASE | re.MULTILINE,
    ),
    re.compile(
        r"(?:^|[。：:；\n])\s*(运维手册|手册|流程|规范|规程|技能|步骤\s*\d*|操作步骤|最佳实践|操作规程)\S{0,4}\s*[:：]"
    ),
    re.compile(
        r"(每天|每晚|每次|总是|一律|以后都)\S{0,20}(导出|删除|关闭|跳过|发送|转发|上传|批准|重启|执行)"
    ),
    re.compile(r"\S{0,20}前(先)?\S{0,10}(关闭|删除|跳过|禁用)"),
]

# An imperative addressed to the agent: a standing order to move data or change behaviour.
_TO_AGENT_PATTERNS = [
    re.compile(
        r"\b(from now on|going forward|henceforth|in future|from today|always|every time|whenever)\b"
        r"[^.]{0,80}\b(send|forward|cc|bcc|copy|upload|post|email|share|route|redirect|sync|report|"
        r"transfer|leak|exfiltrate)\b[^.]{0,80}\b(to|with)\b",
        re.IGNORECASE,
    ),
    re.compile(
        # "agents" and "assistants" after a noun are a job ("customer service agents", "shop
        # assistants"): only bare, after a determiner or after a machine modifier.
        r"(?:\b(?:the assistant|the ai|the model|you|llms?|chatbots?|bots|crawlers?|scrapers?|"
        r"(?:ai|automated|virtual|digital|language)\s+[a-z]+s)"
        r"|(?:^|(?<=[^\w\s])\s*|\b(?:the|all|any|every|each|our|your|ai|automated|virtual|digital)\s+)"
        r"(?:assistants?|agents?))\s+(must|should|shall|will|are required to|"
        r"need to|have to)\s+(always\s+|now\s+|never\s+)?"
        # not a courtesy or a condition of the reader's (round 20): "will be happy to help",
        # "must be at least 13", "should be retrained" (done to it), "must keep your password
        # confidential" (the account holder's duty, the notice's reader)
        r"(?!be\s+(?:at\s+least|over|under|aged|older|younger|\d)"
        r"|(?<=will\s)be\s+(?:\w+ly\s+)?(?:happy|glad|pleased|delighted)\s+to\s+(?:help|assist)\b"
        r"|(?<!will\s)be\s+(?:\w+ly\s+)?\w+(?:ed|en)\b(?!\s+to\b)|(?:not\s+)?(?:keep|protect|safeguard|"
        r"share|disclose|reveal|give\s+out)\s+your\s+(?:[\w-]+\s+)?(?:password|passcode|pin|"
        r"account|credentials|login|(?:verification|one-time)\s+code)s?\b)\w+",
        re.IGNORECASE,
    ),
    re.compile(
        r"(以后|今后|从现在起|从现在开始|从今以后|往后|从今天起|总是|务必|必须|每次)\S{0,30}"
        r"(发送|发到|发给|转发|上传|抄送|同步到|分享给|汇报给|告诉)\S{0,30}(到|给|至)?"
    ),
    # A clause that ends as a question ("你要一起来吗？") asks, it does not order; a tag question
    # after a comma ("…，明白吗？") leaves the order standing (round 22).
    re.compile(
        r"(助手|智能体|AI|模型|你)(必须|应该|需要|务必|要)(总是|始终|一直)?"
        r"(?![^，,。！？?!\n]{0,20}(?:吗|嗎|么|麼|呢)(?:[？?。]|\s*$))\S{1,20}"
    ),
    # A role-addressed order ("Assistant: send …", "Note to AI: …", "SYSTEM: …").
    re.compile(
        r"\b(?:note|message|reminder|instructions?) (?:to|for) (?:the )?(?:ai|assistant|agent|model|llm|bot)\b"
        r"|\b(?:assistant|agent|ai|chatbot|model|llm)\s*[,:]\s*(?:please\s+)?(?:send|forward|delete|ignore|"
        r"reveal|upload|store|remember|save|run|execute|approve|transfer|email|share|always|never)\b"
        r"|^\s*(?:system|developer)(?:\s+(?:message|note|notice|prompt|update))?\s*[:：]",
        re.IGNORECASE | re.MULTILINE,
    ),
    # A standing order in Chinese: "from now on, every reply must …".
    re.compile(
        r"(以后|今后|从现在起|从现在开始|从今以后|往后|从今天起)\S{0,20}?(都要|必须|一律|务必|记得|请|都得|要先)"
    ),
    re.compile(
        r"(给|致)(助手|智能体|AI|模型|机器人)的?(提示|留言|备注|指令)|(助手|智能体|AI)[，,：:]\s*请?(把|将|记住|删除|发送)"
    ),
    # Markup meant to be read by a model and hidden from a person: text styled out of sight
    # (display:none, visibility:hidden, zero font size, the hidden attribute); a comment
    # is read by ``tool_orders.hidden_order`` (round 20: a label in a comment is markup).
    re.compile(
        r"<\w+[^>]*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px|pt|em)?\b"
        r"|\bhidden\b|aria-hidden\s*=\s*[\"']?true)[^>]*>[^<]*\w",
        re.IGNORECASE,
    ),
    # The shapes an agent acts on, arriving as data: a tool call ({"tool": …, "args": …}),
    # a chat message with a privileged role ({"role": "system", …}), a tag whose name is the
    # assistant's memory or instructions (<memory_update>, <persist>, <instructions>).
    re.compile(
        r"[\"'](?:tool|tool_name|function|function_call|action|name)[\"']\s*:\s*[\"'][\w.-]+[\"']\s*,\s*"
        r"[\"'](?:args|arguments|parameters|params|input|action_input)[\"']\s*:"
        r"|[\"']role[\"']\s*:\s*[\"'](?:system|developer|tool)[\"']",
        re.IGNORECASE,
    ),
    re.compile(
        r"<\s*/?\s*[\w-]*(?:memory|memories|instruction|prompt|persist|remember|directive)[\w-]*"
        r"(?:\s[^>]*)?>"
        # A compound tag named for the assistant's state or the user's standing record
        # (<context_patch>, <user_facts>, <saved_preferences>) around a sentence of four words
        # or more: data fields (<first_name>Ann</first_name>) are a word or two.
        r"|<\s*(?:(?:[a-z]+[_-])+(?:context|facts?|profile|preferences?|persona|knowledge|beliefs?|"
        r"notes?|rules|polic(?:y|ies)|settings|state)(?:[_-][a-z]+)*|(?:context|facts?|profile|"
        r"preferences?|persona|knowledge|beliefs?|notes?|rules|polic(?:y|ies)|settings|state)"
        r"(?:[_-][a-z]+)+)\s*>\s*(?:[^<\s]+\s+){3,}[^<]*<",
        re.IGNORECASE,
    ),
]

_MD_LINK = re.compile(r"\[([^\]\n]{1,200})\]\(\s*([^)\s]+)\s*\)")
_URL = re.compile(r"\b[a-z][a-z0-9+.-]{1,20}://[^\s<>\"')\]]+", re.IGNORECASE)
_DOMAIN_IN_TEXT = re.compile(r"\b((?:[a-z0-9-]+\.)+[a-z]{2,})\b", re.IGNORECASE)
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


# An attack string *mentioned*, not used: a quotation right after a noun or verb that names
# it as words ("the phrase 'ignore previous instructions'", "the string \"…\"", "such as
# '…'", "字符串“…”"). A text about prompt injection quotes the attack; an attack does not
# announce itself as an example (round 13).
_QUOTED = (
    r"(?:'[^'\n]{3,160}'|\"[^\"\n]{3,160}\"|\u201c[^\u201d\n]{3,160}\u201d|\u2018[^\u2019\n]{3,160}\u2019"
    r"|\u300c[^\u300d\n]{3,160}\u300d|\u300e[^\u300f\n]{3,160}\u300f)"
)
_MENTIONED = re.compile(
    r"(?:\b(?:the\s+|a\s+|an\s+|this\s+|that\s+)?(?:(?:attack|injection|trigger|example|test|"
    r"magic|famous|classic|infamous)\s+)?(?:phrases?|strings?|words|sentences?|lines?|examples?|"
    r"payloads?|prompts?|text)|\bsuch\s+as|\blike|\bcalled|\bnamed|\bquotes?|\bquoting|\btyped|"
    # Reported speech: a verb of saying or asking in a finite or participle form (never the
    # bare imperative "tell the assistant to '…'"), its hearer (never "you": "I'm telling you
    # to '…'" is the order itself), then the quoted words.
    r"\b(?:tell(?:s|ing)|told|ask(?:s|ed|ing)|instruct(?:s|ed|ing)|order(?:s|ed|ing)|"
    r"say(?:s|ing)|said|writ(?:es|ing)|wrote)(?:\s+(?!you\b|u\b|ya\b)[\w-]+){0,3}?(?:\s+to)?|"
    r"(?:字符串|短语|句子|语句|例子|例如|比如|诸如|文字|攻击语句|フレーズ|文字列|例えば|문구|문자열|예를\s*들어))"
    rf"\s*[:：,]?\s*{_QUOTED}",
    re.IGNORECASE,
)


def _used_not_mentioned(form: str) -> bool:
    """The injection patterns find the attack outside every quotation that mentions it."""
    if not search_any(_INJECTION_PATTERNS, form):
        return False
    bare = _MENTIONED.sub(" ", form)
    return bare == form or search_any(_INJECTION_PATTERNS, bare)


def _chinese_rules() -> tuple[re.Pattern[str], ...]:
    """Every pattern of the instruction rules (this module's, ``tool_orders``' and
    ``addressing``'s): their Chinese words are the pinyin reading's lexicon."""
    found: list[re.Pattern[str]] = []
    for values in (globals(), vars(tool_orders), vars(addressing)):
        for value in values.values():
            for p in value if isinstance(value, list | tuple) else [value]:
                if isinstance(p, re.Pattern) and _HAN.search(p.pattern):
                    found.append(p)
    return tuple(found)


_HAN = re.compile(r"[\u4e00-\u9fff]")


def pinyin_readings(form: str) -> list[str]:
    """``form``'s pinyin runs in the rules' characters (round 22), or nothing."""
    spelled = read_pinyin_words(form, _CHINESE_RULES)
    return [spelled] if spelled else []


def find_injection(text: str) -> list[str]:
    """``instruction_like_text`` when the text attacks the agent's instructions."""
    form = normalize_for_detection(text)
    if _used_not_mentioned(form):
        return ["instruction_like_text"]
    # ROT13, base64, hex, leet or reversed text that decodes to language is read like what
    # it hides (memory.detectors.injection_readings).
    if any(
        search_any(_INJECTION_PATTERNS, decoded)
        for decoded in (
            *readings(form),
            *extra_readings(form),
            *native_readings(text),
            *pinyin_readings(form),
        )
    ):
        return ["instruction_like_text"]
    return []


def find_procedure_like(text: str) -> list[str]:
    """``procedure_like_text`` for text that prescribes how to act (a runbook step, a
    rule) — what only reviewed procedural memory may say, whatever type is claimed."""
    form = normalize_for_detection(text)
    if search_any(_PROCEDURE_PATTERNS, form):
        return ["procedure_like_text"]
    return []


def find_instruction_to_agent(text: str) -> list[str]:
    """``instruction_to_agent`` for a standing order addressed to the assistant, or for any
    text that speaks to the assistant or sends the user's data out (policy step 13 asks this
    of tool and web content only)."""
    form = normalize_for_detection(text)
    decoded = (
        *readings(form),
        *extra_readings(form),
        *native_readings(text),
        *pinyin_readings(form),
    )
    # A comment, a cell or a key's value is also read as a text of its own, decoded or not.
    carried = [body for r in (form, *decoded) for body in carried_texts(r)]
    for reading in (form, *decoded, *carried):
        if search_any(_TO_AGENT_PATTERNS, reading):
            return ["instruction_to_agent"]
        # Structure, not phrasing (memory.detectors.addressing): content that speaks to the
        # assistant, or that would send the user's data somewhere.
        if addresses_the_assistant(reading) or sends_users_data_out(reading):
            return ["instruction_to_agent"]
        # The frames of address those leave out (memory.detectors.tool_orders, round 13).
        if orders_the_reader(reading) or hidden_order(reading):
            return ["instruction_to_agent"]
    # What a tool encoded (ROT13, base64, hex, backwards; not a script fold or pinyin) is
    # hidden from a person; an order in it is read as in a hidden comment.
    if any(conceals_an_order(r) for r in (*readings(form), *encoded_readings(form))):
        return ["instruction_to_agent"]
    return []


def _registered(host: str) -> str:
    parts = host.lower().rstrip(".").split(".")
    return ".".join(parts[-2:])


def _host(url: str) -> str:
    try:
        return urlsplit(url if "://" in url else "http://" + url).hostname or ""
    except ValueError:
        return ""


def find_obfuscation(text: str) -> list[str]:
    """``deceptive_link`` and ``obfuscated_text`` findings on the *original* text."""
    findings: set[str] = set()
    for m in _MD_LINK.finditer(text):
        label, target = m.group(1), m.group(2)
        host = _host(target)
        shown = _DOMAIN_IN_TEXT.search(normalize_for_detection(label))
        if shown and host and _registered(shown.group(1)) != _registered(host):
            findings.add("deceptive_link")
    for m in _URL.finditer(text):
        host = _host(m.group())
        if host and (not host.isascii() or "xn--" in host):
            findings.add("deceptive_link")
    for m in _MD_LINK.finditer(text):
        host = _host(m.group(2))
        if host and (not host.isascii() or "xn--" in host):
            findings.add("deceptive_link")
    if has_mixed_script_word(text) or _BIDI.search(text) or _invisible_inside_word(text):
        findings.add("obfuscated_text")
    return sorted(findings)


def _invisible_inside_word(text: str) -> bool:
    """A format character between two letters ("pass\u200bword"); emoji joiners sit
    between symbols and do not count."""
    for i in range(1, len(text) - 1):
        if unicodedata.category(text[i]) == "Cf":
            j = i + 1
            while j < len(text) and unicodedata.category(text[j]) == "Cf":
                j += 1
            if j < len(text) and text[i - 1].isalpha() and text[j].isalpha():
                return True
    return False


# Read once the module's patterns exist (a constant, like the patterns themselves).
_CHINESE_RULES = _chinese_rules()
