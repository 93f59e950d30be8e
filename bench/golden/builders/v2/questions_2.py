"""Golden set v2: questions, continued (see __init__.py)."""

from __future__ import annotations

from .questions import Q

# as_of: what was true at an earlier date ({year} is the as_of year).
AS_OF_Q = {
    "home_city": Q(
        [
            "Which city did the user live in back in {year}?",
            "Where was the user's home during {year}?",
        ],
        ["{year}年的时候用户住在哪个城市？", "用户{year}年住在哪里？"],
        [
            "In {year}, where was the user living?",
            "What was the user's city of residence in {year}?",
        ],
        ["回到{year}年，用户当时的居住地是哪里？", "{year}年用户人在哪座城市生活？"],
    ),
    "employer": Q(
        [
            "Which company was the user working for in {year}?",
            "Who employed the user back in {year}?",
        ],
        ["{year}年用户在哪家公司工作？", "用户{year}年的雇主是谁？"],
        [
            "In {year}, where did the user have a job?",
            "What was the user's workplace during {year}?",
        ],
        ["{year}年那会儿用户在哪儿上班？", "回看{year}年，用户供职于哪家公司？"],
    ),
}


# same_name: the subject's own name in the question.
SAME_NAME_Q = {
    "employer": Q(
        ["Where does {name} work?", "Which company is {name} employed by?"],
        ["{name}在哪里工作？", "{name}在哪家公司上班？"],
        ["What is {name}'s employer?", "Who does {name} work for?"],
        ["{name}的东家是哪家公司？", "{name}现在在哪个公司任职？"],
    ),
    "home_city": Q(
        ["Where does {name} live?", "Which city is {name} in?"],
        ["{name}住在哪里？", "{name}在哪个城市？"],
        ["What city is {name} based in?", "Where is {name}'s home?"],
        ["{name}现在定居在哪座城市？", "{name}的家在哪儿？"],
    ),
    "drink": Q(
        ["What does {name} like to drink?", "What is {name}'s favourite drink?"],
        ["{name}喜欢喝什么？", "{name}最爱的饮料是什么？"],
        ["Which beverage should I order for {name}?", "What's {name}'s drink of choice?"],
        ["给{name}点饮料该点什么？", "{name}偏爱哪种饮品？"],
    ),
    "editor": Q(
        ["Which editor does {name} code in?", "What IDE does {name} use?"],
        ["{name}用什么编辑器写代码？", "{name}用哪个IDE？"],
        ["What does {name} write programs in?", "Which development tool is {name} on?"],
        ["{name}平时在哪个工具里编程？", "{name}的开发环境是什么？"],
    ),
}


CODE_Q = Q(
    ["What happened with {code}?", "Anything on record about {code}?"],
    ["{code} 是怎么回事？", "关于{code}有什么记录？"],
    ["Look up {code} for me, what was it about?", "What's the story behind {code}?"],
    ["帮我查一下{code}是什么情况", "{code}对应的是哪件事？"],
)


# Questions nobody in the set has a memory for.
GENERIC_ABSTAIN_Q = Q(
    [
        "What is the user's passport number?",
        "What's the user's blood type?",
        "What shoe size does the user wear?",
        "How much does the user earn per year?",
    ],
    ["用户的护照号码是多少？", "用户是什么血型？", "用户穿多大码的鞋？", "用户年薪多少？"],
    [
        "Which football club does the user support?",
        "What's the licence plate on the user's car?",
        "When is the user's wedding anniversary?",
        "What was the name of the user's primary school?",
    ],
    [
        "用户支持哪支足球队？",
        "用户的车牌号是多少？",
        "用户的结婚纪念日是哪天？",
        "用户上的是哪所小学？",
    ],
)


# Background categories: questions about one background memory, anchored by a slot that is
# unique to that memory within its subject.
BG_Q = {
    "flight": Q(
        ["What happened on the user's flight to {to}?", "How did the user's flight to {to} go?"],
        ["用户飞{to}的那趟航班出了什么情况？", "用户坐飞机去{to}那回顺利吗？"],
        [
            "Any trouble with the plane the user took to {to}?",
            "Tell me about the user's air trip to {to}.",
        ],
        ["用户去{to}的航班有没有遇到问题？", "关于用户前往{to}的航班，记录里怎么说？"],
    ),
    "hotel": Q(
        ["How was the user's hotel in {city}?", "Where did the user stay in {city}?"],
        ["用户在{city}住的酒店怎么样？", "用户去{city}时住的哪家酒店？"],
        [
            "Any notes on the user's accommodation in {city}?",
            "What did the user think of the place they stayed at in {city}?",
        ],
        ["用户在{city}下榻的地方体验如何？", "{city}那家酒店用户评价如何？"],
    ),
    "meeting": Q(
        ["What did the user decide about {topic}?", "What came out of the meeting on {topic}?"],
        ["关于{topic}，会上定了什么？", "讨论{topic}的会议结论是什么？"],
        [
            "Which way did the {topic} discussion land?",
            "Who did the user meet regarding {topic}, and what was agreed?",
        ],
        ["{topic}那次会最后怎么决定的？", "用户跟谁讨论过{topic}，结果如何？"],
    ),
    "deploy": Q(
        ["Why did the {svc} deployment fail?", "What broke when {svc} was released?"],
        ["{svc}服务那次发布为什么失败？", "{svc}上线出了什么错？"],
        [
            "What was the root cause of the failed {svc} rollout?",
            "Which error code did the {svc} deploy hit?",
        ],
        ["{svc}部署失败的根本原因是什么？", "{svc}发版时报的是什么错误码？"],
    ),
    "incident": Q(
        ["What caused the outage in {infra}?", "What went wrong with {infra}?"],
        ["{infra}那次故障是什么原因？", "{infra}出过什么事故？"],
        ["Was there an incident involving {infra}? What happened?", "Why did {infra} fail?"],
        ["{infra}的线上事故是怎么引起的？", "{infra}出问题那次持续了多久？"],
    ),
    "order": Q(
        [
            "What was wrong with the {item} the user ordered?",
            "Did the user's {item} purchase online have a problem?",
        ],
        ["用户买的{item}出了什么问题？", "用户网购的{item}怎么了？"],
        [
            "What complaint did the user have about their {item} order?",
            "How did the {item} order turn out for the user?",
        ],
        ["用户对订购的{item}有什么不满？", "{item}那笔订单后来怎么样了？"],
    ),
    "ticket": Q(
        ["What did the user complain to {vendor} about?", "Why did the user contact {vendor}?"],
        ["用户为什么联系{vendor}客服？", "用户跟{vendor}反映过什么问题？"],
        [
            "What issue did the user raise with {vendor}?",
            "Was the user's problem with {vendor} sorted out?",
        ],
        ["用户和{vendor}之间有过什么纠纷？", "{vendor}那边的问题后来解决了吗？"],
    ),
    "help": Q(
        ["When did the user want help {task}?", "Have I helped the user with {task} before?"],
        ["用户什么时候让我帮忙{task}？", "我之前帮用户{task}过吗？"],
        [
            "Is there a record of the user asking for assistance {task}?",
            "How did it go when we worked on {task}?",
        ],
        ["用户有没有找我{task}过？", "和用户一起{task}那次结果怎样？"],
    ),
    "person_city": Q(
        ["Which city is {p} in?", "Where is {p} based?"],
        ["{p}住在哪个城市？", "{p}现在在哪儿生活？"],
        ["What city does {p} live in?", "Where has {p} settled?"],
        ["{p}的常住地是哪里？", "{p}人在哪座城市？"],
    ),
    "person_job": Q(
        ["Where does {p} work?", "What is {p}'s job?"],
        ["{p}在哪家公司工作？", "{p}是做什么工作的？"],
        ["Who employs {p}?", "What does {p} do for a living?"],
        ["{p}的雇主是谁？", "{p}从事什么职业？"],
    ),
    "person_allergy": Q(
        ["What is {p} allergic to?", "Does {p} have any allergies?"],
        ["{p}对什么过敏？", "{p}有过敏的东西吗？"],
        ["Which allergy does {p} have?", "Anything {p} must avoid because of an allergy?"],
        ["{p}有什么过敏原？", "给{p}准备吃的要避开什么过敏的东西？"],
    ),
    "person_pet": Q(
        ["What pet does {p} have?", "What's the name of {p}'s pet?"],
        ["{p}养了什么宠物？", "{p}的宠物叫什么？"],
        ["Does {p} own an animal? What is it called?", "Which animal lives with {p}?"],
        ["{p}家里养的是什么小动物？", "{p}的宠物名字是什么？"],
    ),
    "person_channel": Q(
        ["How does {p} like to be contacted?", "What's the best channel to reach {p}?"],
        ["联系{p}用什么方式最好？", "{p}喜欢用什么工具沟通？"],
        ["Which messaging tool should I use for {p}?", "Is email the right way to reach {p}?"],
        ["找{p}应该发消息还是发邮件？", "{p}偏好的沟通渠道是什么？"],
    ),
    "person_diet": Q(
        ["Does {p} have dietary restrictions?", "What can't {p} eat?"],
        ["{p}有什么忌口？", "{p}吃东西有什么限制吗？"],
        [
            "Any food preferences I should know for {p}?",
            "If I invite {p} to dinner, what should I avoid serving?",
        ],
        ["请{p}吃饭要注意什么？", "{p}的饮食习惯是怎样的？"],
    ),
    "project_note": Q(
        ["What did {proj} pick for {component}?", "Which tech is {proj} using for {component}?"],
        ["{proj}项目的{component}选了什么技术？", "{proj}的{component}用的是什么？"],
        [
            "For {component}, what did the {proj} team settle on?",
            "What was the technology decision for {component} in {proj}?",
        ],
        ["{proj}在{component}上最终定了哪个方案？", "{proj}团队给{component}选型选了啥？"],
    ),
    "purchase": Q(
        ["How much did the user pay for the {item}?", "Where did the user buy their {item}?"],
        ["用户的{item}花了多少钱？", "用户在哪儿买的{item}？"],
        ["What was the price of the user's {item}?", "Which shop sold the user their {item}?"],
        ["用户买{item}花了多少？", "那个{item}是用户从哪家店买的？"],
    ),
    "dinner": Q(
        ["Who did the user have dinner with at {rest}?", "What did the user think of {rest}?"],
        ["用户在{rest}和谁吃的饭？", "用户觉得{rest}怎么样？"],
        ["Which dish did the user like at {rest}?", "Any notes from the user's meal at {rest}?"],
        ["用户在{rest}吃了什么觉得不错？", "{rest}那顿饭用户评价如何？"],
    ),
    "appointment": Q(
        ["When is the user's {appt}?", "Did the user's {appt} get moved?"],
        ["用户的{appt}约在哪天？", "用户的{appt}改时间了吗？"],
        [
            "What date did the user's {appt} get rescheduled to?",
            "Is there a date on file for the user's {appt}?",
        ],
        ["用户{appt}改到了哪天？", "用户那个{appt}的时间有变动吗？"],
    ),
    "oneoff": Q(
        ["What did the user want for {d}?", "Any formatting wishes for {d}?"],
        ["{d}用户有什么要求？", "用户对{d}的格式有什么偏好？"],
        ["How should {d} look according to the user?", "What style did the user ask for in {d}?"],
        ["{d}要按什么风格做？", "用户对{d}提过哪些具体要求？"],
    ),
    "media": Q(
        ["What did the user think of {film}?", "Has the user seen {film}?"],
        ["用户觉得《{film}》怎么样？", "用户看过《{film}》吗？"],
        ["How did the user rate {film}?", "What was the user's take on {film}?"],
        ["用户对《{film}》评价如何？", "《{film}》用户看完什么感受？"],
    ),
    "invoice": Q(
        [
            "What was the issue with the invoice from {vendor}?",
            "Was there a problem paying {vendor}?",
        ],
        ["{vendor}的发票有什么问题？", "付给{vendor}的钱出过什么状况？"],
        ["Anything odd about {vendor}'s bill?", "What happened with the payment to {vendor}?"],
        ["{vendor}开的票后来怎么处理的？", "和{vendor}结账时遇到过什么麻烦？"],
    ),
    "event": Q(
        ["How did the user find {event}?", "When did the user go to {event}?"],
        ["用户觉得{event}怎么样？", "用户什么时候去的{event}？"],
        ["What was the user's impression of {event}?", "Did the user attend {event}? How was it?"],
        ["用户参加{event}有什么感受？", "{event}用户去了吗，体验如何？"],
    ),
}
