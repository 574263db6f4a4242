//! The traffic checker on MCP sessions of every version (`mcp`), and the tap's monitor on
//! recorded and hand-made ACP and MCP traffic (`tap_monitor`).

mod mcp;
mod tap_monitor;
