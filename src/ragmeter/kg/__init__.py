"""The CRAG mock knowledge-graph API: stores over the official files, server, client, tools.

Light to import: the server (FastAPI) and the stores load only when used.
"""

from ragmeter.kg.client import AsyncKGClient, KGClient
from ragmeter.kg.endpoints import ENDPOINTS, Endpoint
from ragmeter.kg.errors import KGDataError, KGInputError, KGRequestError, ToolCallError
from ragmeter.kg.tools import aexecute_tool_call, execute_tool_call, render_result, tool_schemas

__all__ = [
    "ENDPOINTS",
    "AsyncKGClient",
    "Endpoint",
    "KGClient",
    "KGDataError",
    "KGInputError",
    "KGRequestError",
    "ToolCallError",
    "aexecute_tool_call",
    "execute_tool_call",
    "render_result",
    "tool_schemas",
]
