"""Typed request and response models, written by hand from ``/api/v1/schema``.

``SCHEMA_COMPONENTS`` maps each model to its OpenAPI component; the test
``tests/clients/test_models_schema.py`` fails when a field is added, removed or changes
requiredness on either side, so these cannot drift from the server silently.

Conventions: ids and date-times stay strings (UUID / ISO 8601) exactly as on the wire;
request fields left ``None`` are omitted so the server's defaults apply.
"""

from __future__ import annotations

from engramhq_client.models.history import ApiErrorBody as ApiErrorBody
from engramhq_client.models.history import MemoryAuthor as MemoryAuthor
from engramhq_client.models.history import MemoryChange as MemoryChange
from engramhq_client.models.history import MemoryHistory as MemoryHistory
from engramhq_client.models.history import MemoryPeriod as MemoryPeriod
from engramhq_client.models.history import MemoryVersion as MemoryVersion
from engramhq_client.models.history import SlotLookupOutput as SlotLookupOutput
from engramhq_client.models.history import SlotLookupRequest as SlotLookupRequest
from engramhq_client.models.history import SlotLookupResult as SlotLookupResult
from engramhq_client.models.history import SlotRef as SlotRef
from engramhq_client.models.history import SlotWrite as SlotWrite
from engramhq_client.models.history import SlotWriteBatchRequest as SlotWriteBatchRequest
from engramhq_client.models.records import _REQUIRED as _REQUIRED
from engramhq_client.models.records import Candidate as Candidate
from engramhq_client.models.records import CandidateBatchResult as CandidateBatchResult
from engramhq_client.models.records import CandidateResult as CandidateResult
from engramhq_client.models.records import ChangeRequest as ChangeRequest
from engramhq_client.models.records import ChangeRequestInput as ChangeRequestInput
from engramhq_client.models.records import ChangeRequestStatus as ChangeRequestStatus
from engramhq_client.models.records import ContextPack as ContextPack
from engramhq_client.models.records import ConversationDecision as ConversationDecision
from engramhq_client.models.records import ConversationResult as ConversationResult
from engramhq_client.models.records import ConversationTurnRequest as ConversationTurnRequest
from engramhq_client.models.records import DeleteRequest as DeleteRequest
from engramhq_client.models.records import Event as Event
from engramhq_client.models.records import EventBatchResult as EventBatchResult
from engramhq_client.models.records import EventResult as EventResult
from engramhq_client.models.records import MemoryPage as MemoryPage
from engramhq_client.models.records import MemoryRecord as MemoryRecord
from engramhq_client.models.records import Message as Message
from engramhq_client.models.records import Procedure as Procedure
from engramhq_client.models.records import RecallFeedback as RecallFeedback
from engramhq_client.models.records import RecallFeedbackResult as RecallFeedbackResult
from engramhq_client.models.records import RecallItem as RecallItem
from engramhq_client.models.records import RecallRequest as RecallRequest
from engramhq_client.models.records import RecallSource as RecallSource
from engramhq_client.models.records import RetractRequest as RetractRequest
from engramhq_client.models.records import SubjectEraseRequest as SubjectEraseRequest
from engramhq_client.models.records import SubjectErasure as SubjectErasure
from engramhq_client.models.records import SubjectToken as SubjectToken
from engramhq_client.models.records import SubjectTokenRequest as SubjectTokenRequest
from engramhq_client.models.records import SupersedeRequest as SupersedeRequest
from engramhq_client.models.records import T as T
from engramhq_client.models.records import _Model as _Model
from engramhq_client.models.working import KeptResult as KeptResult
from engramhq_client.models.working import ThreadClosed as ThreadClosed
from engramhq_client.models.working import WorkingEntry as WorkingEntry
from engramhq_client.models.working import WorkingList as WorkingList

# Model -> OpenAPI component it mirrors (checked by tests/clients/test_models_schema.py).
SCHEMA_COMPONENTS: dict[type, str] = {
    Event: "EventInputRequest",
    Candidate: "CandidateInputRequest",
    RecallRequest: "RecallInputRequest",
    RecallFeedback: "RecallFeedbackInputRequest",
    SupersedeRequest: "MemorySupersedeInputRequest",
    RetractRequest: "MemoryRetractInputRequest",
    ChangeRequestInput: "ProcedureChangeRequestInputRequest",
    SubjectTokenRequest: "SubjectTokenInputRequest",
    SubjectEraseRequest: "SubjectEraseInputRequest",
    SubjectErasure: "SubjectEraseOutput",
    EventResult: "EventResult",
    EventBatchResult: "EventBatchOutput",
    CandidateResult: "CandidateResult",
    CandidateBatchResult: "CandidateBatchOutput",
    MemoryRecord: "MemoryRecordOutput",
    MemoryPage: "MemoryListOutput",
    RecallSource: "RecallSourceOutput",
    RecallItem: "RecallItemOutput",
    ContextPack: "RecallOutput",
    RecallFeedbackResult: "RecallFeedbackOutput",
    Procedure: "ProcedureOutput",
    ChangeRequest: "ProcedureChangeRequestOutput",
    ChangeRequestStatus: "ProcedureChangeRequestStatusOutput",
    SubjectToken: "SubjectTokenOutput",
    ApiErrorBody: "Error",
    Message: "ConversationMessageInputRequest",
    ConversationTurnRequest: "ConversationTurnInputRequest",
    ConversationDecision: "ConversationDecision",
    ConversationResult: "ConversationTurnOutput",
    MemoryAuthor: "MemoryAuthorOutput",
    MemoryVersion: "MemoryVersionOutput",
    MemoryPeriod: "MemoryPeriodOutput",
    MemoryChange: "MemoryChangeOutput",
    MemoryHistory: "MemoryHistoryOutput",
    SlotWrite: "SlotWriteInputRequest",
    SlotRef: "SlotInputRequest",
    SlotWriteBatchRequest: "SlotWriteBatchInputRequest",
    SlotLookupRequest: "SlotLookupInputRequest",
    SlotLookupResult: "SlotLookupResult",
    SlotLookupOutput: "SlotLookupOutput",
    WorkingEntry: "WorkingEntryOutput",
    WorkingList: "WorkingListOutput",
    KeptResult: "KeptResult",
    ThreadClosed: "ThreadCloseOutput",
}
