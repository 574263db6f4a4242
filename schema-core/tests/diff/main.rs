//! The schema diff: hand-made pairs, one per change kind, and the published ACP releases
//! (`acp`); consecutive official MCP versions (`mcp`).

mod acp;
mod mcp;
