"""Agent API for procedural memory (``/api/v1/procedures/…``). Adapters only.

Agents read the current approved version and propose changes; they never approve.
"""

from __future__ import annotations

import uuid

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import AgentPrincipal
from accounts.models import Sensitivity
from accounts.permissions import HasReadScope, HasWriteScope
from core.actor import Actor
from core.api import ApiError
from core.serializers import ErrorSerializer
from core.tenancy import tenant_context
from governance import selectors
from governance.api import serializers as s
from governance.models import ProceduralDocument
from governance.services.errors import GovernanceError
from governance.services.procedures import change_request_propose

ERRORS = {
    400: ErrorSerializer,
    401: ErrorSerializer,
    403: ErrorSerializer,
    404: ErrorSerializer,
    409: ErrorSerializer,
}


def _document(principal: AgentPrincipal, slug: str) -> ProceduralDocument:
    document = selectors.procedure_get(tenant_id=principal.tenant_id, slug=slug)
    # Procedures are internal: an agent cleared only for public data does not see them.
    cleared = Sensitivity.rank(principal.agent.clearance) >= Sensitivity.rank(Sensitivity.INTERNAL)
    if document is None or not cleared:
        raise ApiError("not_found", "No such procedure in your tenant.", status_code=404)
    return document


class ProcedureDetailView(APIView):
    permission_classes = [HasReadScope]

    @extend_schema(
        operation_id="procedure_retrieve",
        summary="The current approved version of a procedure",
        responses={200: s.ProcedureOutputSerializer, **ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        principal: AgentPrincipal = request.user
        with tenant_context(principal.tenant_id):
            document = _document(principal, slug)
            version = selectors.procedure_version_get(
                document=document, number=document.current_version
            )
            return Response(
                s.ProcedureOutputSerializer(
                    {
                        "slug": document.slug,
                        "title": document.title,
                        "kind": document.kind,
                        "namespace": document.namespace,
                        "version": document.current_version,
                        "text": version.text if version else None,
                        "record_id": version.memory_record_id if version else None,
                    }
                ).data
            )


class ProcedureChangeRequestCreateView(APIView):
    permission_classes = [HasWriteScope]

    @extend_schema(
        operation_id="procedure_change_request_create",
        summary="Propose a new full text for a procedure (a reviewer decides)",
        request=s.ProcedureChangeRequestInputSerializer,
        responses={201: s.ProcedureChangeRequestOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        principal: AgentPrincipal = request.user
        if not isinstance(request.data, dict):
            raise ApiError("invalid_input", "The request body must be a JSON object.")
        serializer = s.ProcedureChangeRequestInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        request_id = request.META.get("HTTP_X_REQUEST_ID", "")[:64] or uuid.uuid4().hex
        with tenant_context(principal.tenant_id):
            document = _document(principal, slug)
            try:
                cr = change_request_propose(
                    actor=Actor.agent(principal.agent.id, principal.tenant_id),
                    document=document,
                    proposed_text=data["proposed_text"],
                    base_version=data["base_version"],
                    rationale=data["rationale"],
                    source=data["source"],
                    source_uri=data["source_uri"],
                    proposer_agent_id=principal.agent.id,
                    request_id=request_id,
                )
            except GovernanceError as e:
                raise ApiError(e.code, e.message, status_code=e.status, extra=e.extra) from None
            body = {
                "id": cr.id,
                "procedure": document.slug,
                "base_version": cr.base_version,
                "status": cr.status,
                "warnings": cr.warnings,
                "created_at": cr.created_at,
            }
        return Response(
            s.ProcedureChangeRequestOutputSerializer(body).data, status=status.HTTP_201_CREATED
        )


class ProcedureChangeRequestDetailView(APIView):
    permission_classes = [HasReadScope]

    @extend_schema(
        operation_id="procedure_change_request_retrieve",
        summary="The state of a change request this agent proposed",
        responses={200: s.ProcedureChangeRequestStatusOutputSerializer, **ERRORS},
    )
    def get(self, request: Request, slug: str, change_request_id: uuid.UUID) -> Response:
        principal: AgentPrincipal = request.user
        with tenant_context(principal.tenant_id):
            document = _document(principal, slug)
            # An agent sees only its own proposals (others' may carry other agents' text).
            cr = document.change_requests.filter(
                id=change_request_id, proposer_agent_id=principal.agent.id
            ).first()
            if cr is None:
                raise ApiError("not_found", "No such change request of yours.", status_code=404)
            version = getattr(cr, "created_version", None) if cr.status == "approved" else None
            body = {
                "id": cr.id,
                "procedure": document.slug,
                "base_version": cr.base_version,
                "status": cr.status,
                "warnings": cr.warnings,
                "created_at": cr.created_at,
                "decided_at": cr.decided_at,
                "approved_version": version.number if version else None,
            }
        return Response(s.ProcedureChangeRequestStatusOutputSerializer(body).data)
