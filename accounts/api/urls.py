from django.urls import path

from accounts.api import views

urlpatterns = [
    path("subject-tokens", views.SubjectTokenIssueView.as_view(), name="api-subject-tokens"),
]
