"""An ACP agent on the official Python SDK (`agent-client-protocol`, its typed models and
helpers only: the SDK writes every message), speaking over stdio.

`python peers/acp/py_agent.py`. The same script as peers/acp/agent.mjs, so that the same client
(peers/acp/client.mjs, on the TypeScript SDK) drives it: a first prompt turn with a plan, a
thought, message chunks of each content type, the available commands, one tool call of each
kind going through its statuses with content of each type, a file read and write and a terminal
run through the client, permission requests answered with each option kind, one call ending
`failed`, stop reason `end_turn`; a second turn cancelled by the client while a permission
request is pending, stop reason `cancelled`.
"""

import asyncio
from typing import Any

from acp import (
    PROTOCOL_VERSION,
    Agent,
    Client,
    audio_block,
    embedded_blob_resource,
    embedded_text_resource,
    image_block,
    plan_entry,
    resource_block,
    resource_link_block,
    run_agent,
    start_tool_call,
    text_block,
    tool_content,
    tool_diff_content,
    tool_terminal_ref,
    update_agent_message,
    update_agent_thought_text,
    update_plan,
    update_tool_call,
)
from acp.helpers import update_available_commands
from acp.schema import (
    AgentCapabilities,
    Annotations,
    AvailableCommand,
    Implementation,
    InitializeResponse,
    NewSessionResponse,
    PermissionOption,
    PromptCapabilities,
    PromptResponse,
    ToolCallLocation,
    ToolCallUpdate,
    UnstructuredCommandInput,
)

TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
TINY_WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA="
KINDS = ["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"]
FOUR_OPTIONS = [
    PermissionOption(option_id="allow-once", name="Allow once", kind="allow_once"),
    PermissionOption(option_id="allow-always", name="Always allow", kind="allow_always"),
    PermissionOption(option_id="reject-once", name="Reject", kind="reject_once"),
    PermissionOption(option_id="reject-always", name="Always reject", kind="reject_always"),
]


class ScriptedAgent(Agent):
    """The scripted agent; `conn` is the client side, set by the SDK on connection."""

    def __init__(self) -> None:
        self.conn: Client | None = None
        self.sessions: dict[str, dict[str, Any]] = {}
        self.cancelled: dict[str, asyncio.Event] = {}

    def on_connect(self, conn: Client) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(
            protocol_version=PROTOCOL_VERSION,
            agent_capabilities=AgentCapabilities(
                load_session=False,
                prompt_capabilities=PromptCapabilities(image=True, audio=True, embedded_context=True),
            ),
            auth_methods=[],
            agent_info=Implementation(name="toolcall-contracts-peer-py-agent", version="0.0.0"),
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        session_id = f"session-{len(self.sessions) + 1}"
        self.sessions[session_id] = {"turn": 0, "cwd": cwd}
        return NewSessionResponse(session_id=session_id)

    async def prompt(self, session_id: str, prompt: list[Any], **kwargs: Any) -> PromptResponse:
        session = self.sessions[session_id]
        session["turn"] += 1
        if session["turn"] == 1:
            return await self.first_turn(session_id, session["cwd"])
        return await self.cancelled_turn(session_id, session["cwd"])

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        self.cancelled.setdefault(session_id, asyncio.Event()).set()

    async def send(self, session_id: str, update: Any) -> None:
        assert self.conn is not None
        await self.conn.session_update(session_id=session_id, update=update)

    async def first_turn(self, session_id: str, cwd: str) -> PromptResponse:
        assert self.conn is not None
        entries = [
            plan_entry("Read the configuration", priority="high", status="completed"),
            plan_entry("Change the greeting", priority="medium", status="in_progress"),
            plan_entry("Run the tests", priority="low", status="pending"),
        ]
        await self.send(session_id, update_plan(entries))
        await self.send(session_id, update_agent_thought_text("Looking at the project first."))
        await self.send(
            session_id,
            update_available_commands(
                [
                    AvailableCommand(
                        name="test", description="Run the tests", input=UnstructuredCommandInput(hint="a test name")
                    ),
                    AvailableCommand(name="plan", description="Show the plan"),
                ]
            ),
        )
        greeting = text_block("Here is what I found.")
        greeting.annotations = Annotations(audience=["user"], priority=0.5)
        blocks = [
            greeting,
            image_block(TINY_PNG, "image/png"),
            audio_block(TINY_WAV, "audio/wav"),
            resource_link_block("README.md", f"file://{cwd}/README.md", mime_type="text/markdown", size=42),
            resource_block(embedded_text_resource(f"file://{cwd}/hello.txt", "hello\n", mime_type="text/plain")),
            resource_block(embedded_blob_resource(f"file://{cwd}/logo.png", TINY_PNG, mime_type="image/png")),
        ]
        for block in blocks:
            await self.send(session_id, update_agent_message(block))

        for index, kind in enumerate(KINDS):
            call_id = f"call-{kind}"
            path = f"{cwd}/src/file{index}.txt"
            await self.send(
                session_id,
                start_tool_call(
                    call_id,
                    f"A {kind} tool call",
                    kind=kind,
                    status="pending",
                    locations=[ToolCallLocation(path=path, line=index + 1)],
                    raw_input={"path": path, "attempt": 1},
                ),
            )
            if kind in ("edit", "delete", "execute"):
                answer = await self.conn.request_permission(
                    session_id=session_id,
                    tool_call=ToolCallUpdate(tool_call_id=call_id, title=f"Allow the {kind}?", kind=kind, status="pending"),
                    options=FOUR_OPTIONS,
                )
                selected = answer.outcome.option_id if answer.outcome.outcome == "selected" else None
                if selected is None or selected.startswith("reject"):
                    await self.send(
                        session_id,
                        update_tool_call(
                            call_id,
                            status="failed",
                            content=[tool_content(text_block(f"The user answered {selected}."))],
                            raw_output={"refused": True},
                        ),
                    )
                    continue
            await self.send(session_id, update_tool_call(call_id, status="in_progress"))
            content: list[Any] = []
            if kind == "read":
                read = await self.conn.read_text_file(session_id=session_id, path=path, line=1, limit=10)
                content.append(tool_content(text_block(read.content)))
            elif kind == "edit":
                await self.conn.write_text_file(session_id=session_id, path=path, content="hello, world\n")
                content.append(tool_diff_content(path, "hello, world\n", "hello\n"))
                content.append(tool_diff_content(f"{cwd}/src/new.txt", "new\n", None))
            elif kind == "execute":
                terminal = await self.conn.create_terminal(
                    session_id=session_id, command="echo", args=["hi"], output_byte_limit=1024
                )
                content.append(tool_terminal_ref(terminal.terminal_id))
                await self.send(session_id, update_tool_call(call_id, content=content))
                await self.conn.terminal_output(session_id=session_id, terminal_id=terminal.terminal_id)
                await self.conn.wait_for_terminal_exit(session_id=session_id, terminal_id=terminal.terminal_id)
                await self.conn.release_terminal(session_id=session_id, terminal_id=terminal.terminal_id)
            else:
                content.append(tool_content(text_block(f"{kind} done")))
            await self.send(
                session_id,
                update_tool_call(
                    call_id,
                    status="completed",
                    title=f"The {kind} tool call",
                    content=content,
                    raw_output={"ok": True, "kind": kind},
                ),
            )
        done = [plan_entry(e.content, priority=e.priority, status="completed") for e in entries]
        await self.send(session_id, update_plan(done))
        await self.send(session_id, update_agent_message(text_block("All done.")))
        return PromptResponse(stop_reason="end_turn")

    async def cancelled_turn(self, session_id: str, cwd: str) -> PromptResponse:
        assert self.conn is not None
        cancelled = self.cancelled.setdefault(session_id, asyncio.Event())
        call_id = "call-cancelled"
        await self.send(session_id, update_agent_message(text_block("Starting a long job.")))
        await self.send(
            session_id,
            start_tool_call(
                call_id,
                "Remove the build directory",
                kind="delete",
                status="pending",
                locations=[ToolCallLocation(path=f"{cwd}/build")],
            ),
        )
        answer = await self.conn.request_permission(
            session_id=session_id,
            tool_call=ToolCallUpdate(tool_call_id=call_id),
            options=[
                PermissionOption(option_id="allow", name="Allow", kind="allow_once"),
                PermissionOption(option_id="reject", name="Reject", kind="reject_once"),
            ],
        )
        if answer.outcome.outcome != "cancelled":
            raise RuntimeError("the client was expected to cancel this turn")
        await cancelled.wait()
        await self.send(session_id, update_tool_call(call_id, status="failed", raw_output={"cancelled": True}))
        return PromptResponse(stop_reason="cancelled")


if __name__ == "__main__":
    asyncio.run(run_agent(ScriptedAgent()))
