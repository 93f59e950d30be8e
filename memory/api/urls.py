from django.urls import path

from memory.api import conversation, portability, recall, slots, subject_tokens, views, working

urlpatterns = [
    path(
        "subject-tokens",
        subject_tokens.SubjectTokenIssueView.as_view(),
        name="api-subject-tokens",
    ),
    path("events", views.EventAppendView.as_view(), name="api-events"),
    path("candidates", views.CandidateSubmitView.as_view(), name="api-candidates"),
    path("conversation", conversation.ConversationTurnView.as_view(), name="api-conversation"),
    path("memories", views.MemoryListView.as_view(), name="api-memories"),
    path("memories/by-slot", slots.SlotWriteView.as_view(), name="api-memory-slots"),
    path(
        "memories/by-slot/lookup",
        slots.SlotLookupView.as_view(),
        name="api-memory-slots-lookup",
    ),
    path("memories/<uuid:record_id>", views.MemoryDetailView.as_view(), name="api-memory"),
    path(
        "memories/<uuid:record_id>/supersede",
        views.MemorySupersedeView.as_view(),
        name="api-memory-supersede",
    ),
    path(
        "memories/<uuid:record_id>/retract",
        views.MemoryRetractView.as_view(),
        name="api-memory-retract",
    ),
    path(
        "memories/<uuid:record_id>/history",
        portability.MemoryHistoryView.as_view(),
        name="api-memory-history",
    ),
    path("subject/erase", views.SubjectEraseView.as_view(), name="api-subject-erase"),
    path("subject/export", portability.SubjectExportView.as_view(), name="api-subject-export"),
    path("recall", recall.RecallView.as_view(), name="api-recall"),
    path(
        "recall/<uuid:trace_id>/feedback",
        recall.RecallFeedbackView.as_view(),
        name="api-recall-feedback",
    ),
    # A thread id may hold '/' (as event thread ids may): the key route comes first, so
    # ".../working/<key>" is always a key, never a thread named "…/working".
    path(
        "threads/<path:thread_id>/working/<str:key>",
        working.WorkingKeyView.as_view(),
        name="api-working-key",
    ),
    path(
        "threads/<path:thread_id>/working",
        working.WorkingListView.as_view(),
        name="api-working-list",
    ),
    path(
        "threads/<path:thread_id>/close",
        working.ThreadCloseView.as_view(),
        name="api-thread-close",
    ),
]
