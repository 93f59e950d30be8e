from django.urls import path

from memory.api import recall, subject_tokens, views

urlpatterns = [
    path(
        "subject-tokens",
        subject_tokens.SubjectTokenIssueView.as_view(),
        name="api-subject-tokens",
    ),
    path("events", views.EventAppendView.as_view(), name="api-events"),
    path("candidates", views.CandidateSubmitView.as_view(), name="api-candidates"),
    path("memories", views.MemoryListView.as_view(), name="api-memories"),
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
    path("subject/erase", views.SubjectEraseView.as_view(), name="api-subject-erase"),
    path("recall", recall.RecallView.as_view(), name="api-recall"),
    path(
        "recall/<uuid:trace_id>/feedback",
        recall.RecallFeedbackView.as_view(),
        name="api-recall-feedback",
    ),
]
