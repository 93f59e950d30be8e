"""Typical questions an assistant asks its memory, in English and in Chinese.

Their mean embedding per language is the "typical question" of that language under a
given model (``memory.embedders.typical_question``). The vector route subtracts it from
the query's embedding, so a memory scores by how much more it matches *this* question
than it matches questions in general:

    margin(m, q) = cos(m, q) - mean over typical questions t of cos(m, t)
                 = m · (q - centroid)            (vectors are unit length)

Some memories are close to every question ("User's name is Zhang Wei", short profile
lines) and small multilingual models score any memory in the question's script higher
than one in the other script; both effects are the same for every question, so they
cancel in the margin. On the tuning half of the v2 golden set this raised the vector
route's own nDCG@10 from 0.702 (margin over the subject's median, by script) to 0.758,
and held across halves of this list (0.743-0.771).

The questions are generic on purpose: they are not drawn from any benchmark, cover the
usual topics of a personal assistant and carry no names, ids or dates. Changing them
changes every vector margin: re-run ``bench/quality/recall.py`` after any edit.
"""

from __future__ import annotations

EN = (
    "What should I know about this person?",
    "What does the user prefer?",
    "Tell me about the user's background.",
    "What happened recently?",
    "Any notes about their job?",
    "What are the user's habits?",
    "Is there anything about their family?",
    "What did we talk about before?",
    "What problems did the user report?",
    "Which tools does the user rely on?",
    "What are their plans?",
    "How should I reply to this user?",
    "What does the user like to eat?",
    "Where has the user travelled?",
    "What is the status of the order?",
    "Any known issues with the deployment?",
    "Who are the people the user mentioned?",
    "What did the user buy?",
    "What are the user's goals this year?",
    "Does the user have any constraints I should respect?",
    "What is the user working on?",
    "What does the user do on weekends?",
    "How does the user get around?",
    "Which meetings does the user have?",
    "What's the user's schedule like?",
    "What was decided about the project?",
    "What does the user dislike?",
    "Any health information?",
    "What devices does the user own?",
    "What is the user's opinion on this?",
    "Summarise the user's preferences.",
    "What language does the user speak?",
)

ZH = (
    "关于这个人我应该知道什么？",
    "用户喜欢什么？",
    "介绍一下用户的背景。",
    "最近发生了什么？",
    "有关于他工作的记录吗？",
    "用户有哪些习惯？",
    "有关于他家人的信息吗？",
    "我们之前聊过什么？",
    "用户反馈过什么问题？",
    "用户常用哪些工具？",
    "他有什么计划？",
    "应该怎么回复这个用户？",
    "用户喜欢吃什么？",
    "用户去过哪些地方旅行？",
    "这个订单现在什么状态？",
    "部署有没有已知问题？",
    "用户提到过哪些人？",
    "用户买过什么？",
    "用户今年的目标是什么？",
    "有没有需要注意的限制？",
    "用户在忙什么？",
    "用户周末一般做什么？",
    "用户平时怎么出行？",
    "用户有哪些会议？",
    "用户的日程安排是怎样的？",
    "项目最后是怎么决定的？",
    "用户不喜欢什么？",
    "有没有健康方面的信息？",
    "用户有哪些设备？",
    "用户对这件事怎么看？",
    "总结一下用户的偏好。",
    "用户说什么语言？",
)
