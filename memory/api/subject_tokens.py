"""POST /api/v1/subject-tokens: a short-lived token naming one end user (subject)."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import HasAdminScope
from accounts.services.credentials import CredentialError
from core.actor import Actor
from core.api import ApiError
from core.audit import audit_record
from core.codes import AuditAction
from core.serializers import ErrorSerializer
from memory.api.serializers import SubjectTokenInputSerializer, SubjectTokenOutputSerializer
from memory.services.subject_tokens import subject_token_issue, subject_token_kind_check
from memory.services.subjects import subject_get_or_create


class SubjectTokenIssueView(APIView):
    """The agent runtime's backend asks for a short-lived token for one end user. Needs an
    admin-scoped key, so a runtime holding only a read/write key cannot name subjects."""

    permission_classes = [HasAdminScope]

    @extend_schema(
        operation_id="subject_token_issue",
        summary="Issue a short-lived subject token for one end user",
        request=SubjectTokenInputSerializer,
        responses={
            201: SubjectTokenOutputSerializer,
            400: ErrorSerializer,
            401: ErrorSerializer,
            403: ErrorSerializer,
        },
    )
    def post(self, request: Request) -> Response:
        serializer = SubjectTokenInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        principal = request.user
        try:
            subject_token_kind_check(serializer.validated_data["subject_kind"])
        except CredentialError as exc:
            raise ApiError(exc.code, exc.message, status_code=403) from None
        subject = subject_get_or_create(
            tenant_id=principal.tenant_id,
            kind=serializer.validated_data["subject_kind"],
            external_id=serializer.validated_data["external_id"],
        )
        try:
            token = subject_token_issue(
                tenant_id=principal.tenant_id, agent_id=principal.agent.id, subject_id=subject.id
            )
        except CredentialError as exc:
            raise ApiError(exc.code, exc.message, status_code=403) from None
        audit_record(
            actor=Actor.agent(principal.agent.id, principal.tenant_id),
            action=AuditAction.SUBJECT_TOKEN_ISSUE,
            subject_id=subject.id,
        )
        return Response(
            {
                "token": token,
                "subject_id": subject.id,
                "expires_in": settings.ENGRAM["SUBJECT_TOKEN_MAX_AGE_SECONDS"],
            },
            status=201,
        )
