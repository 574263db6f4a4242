//! [`ToolLimits`] and [`ToolExecutionClass`]: the resource and time bounds of a tool
//! (`schema/canonical/limits.schema.json`, `schema/canonical/execution-class.schema.json`).

use std::time::Duration;

use super::error::ToolContractError;
use super::wire;

/// Largest integer on the canonical wire for sizes and durations: 2^53 - 1
/// (9007199254740991), the largest integer every JSON consumer (a JavaScript `number`
/// included) holds exactly.
pub const MAX_WIRE_INTEGER: u64 = 9_007_199_254_740_991;

/// Resource and time limits of a tool. Every limit is at least 1; [`ToolLimits::validate`]
/// checks them, and so do [`super::ToolSpec::try_new`], decoding and encoding.
///
/// On the wire (`$defs/ToolLimits` in `schema/canonical/limits.schema.json`), the deadline is
/// an integer number of milliseconds in `execution_deadline_ms`:
///
/// ```
/// use std::time::Duration;
/// use serde_json::json;
/// use toolcall_contracts::canonical::ToolLimits;
///
/// let limits = ToolLimits { max_concurrent: 4, ..ToolLimits::default() };
/// assert_eq!(
///     serde_json::to_value(limits)?,
///     json!({
///         "max_concurrent": 4,
///         "max_input_bytes": 1048576,
///         "max_output_bytes": 1048576,
///         "execution_deadline_ms": 30000
///     })
/// );
/// let zero = json!({
///     "max_concurrent": 0, "max_input_bytes": 1, "max_output_bytes": 1, "execution_deadline_ms": 1
/// });
/// assert_eq!(
///     serde_json::from_value::<ToolLimits>(zero).unwrap_err().to_string(),
///     "`max_concurrent` must be a whole number from 1 to 4294967295"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(try_from = "wire::ToolLimits")]
pub struct ToolLimits {
    /// Most calls of the tool that may run at once: 1 to 4294967295.
    pub max_concurrent: u32,
    /// Most bytes the `arguments` of a call may take as compact JSON (UTF-8): 1 to
    /// [`MAX_WIRE_INTEGER`].
    pub max_input_bytes: u64,
    /// Most bytes the output of a call may take (compact JSON, or UTF-8 text): 1 to
    /// [`MAX_WIRE_INTEGER`].
    pub max_output_bytes: u64,
    /// Longest a call may run, from its start to its completion: a whole number of
    /// milliseconds, 1 ms to [`MAX_WIRE_INTEGER`] ms (`execution_deadline_ms` on the wire).
    pub execution_deadline: Duration,
}

impl Default for ToolLimits {
    /// One call at a time (a tool is not assumed safe to run concurrently with itself), 1 MiB
    /// (1048576 bytes) of input and of output, 30 seconds per call.
    fn default() -> Self {
        Self {
            max_concurrent: 1,
            max_input_bytes: 1024 * 1024,
            max_output_bytes: 1024 * 1024,
            execution_deadline: Duration::from_secs(30),
        }
    }
}

impl ToolLimits {
    /// Checks every limit.
    ///
    /// # Errors
    /// [`ToolContractError::InvalidLimits`] for the first limit, in declaration order, that is
    /// zero, larger than [`MAX_WIRE_INTEGER`], or (the deadline) not a whole number of
    /// milliseconds.
    pub fn validate(&self) -> Result<(), ToolContractError> {
        self.to_wire().map(drop)
    }

    /// The wire form, when every limit is valid.
    pub(crate) fn to_wire(self) -> Result<wire::ToolLimits, ToolContractError> {
        let invalid = |field, max| ToolContractError::InvalidLimits { field, max };
        if self.max_concurrent == 0 {
            return Err(invalid("max_concurrent", u32::MAX.into()));
        }
        let bytes = |value: u64, field| {
            if (1..=MAX_WIRE_INTEGER).contains(&value) {
                Ok(value)
            } else {
                Err(invalid(field, MAX_WIRE_INTEGER))
            }
        };
        Ok(wire::ToolLimits {
            max_concurrent: self.max_concurrent,
            max_input_bytes: bytes(self.max_input_bytes, "max_input_bytes")?,
            max_output_bytes: bytes(self.max_output_bytes, "max_output_bytes")?,
            execution_deadline_ms: duration_to_ms(self.execution_deadline)
                .ok_or(invalid("execution_deadline_ms", MAX_WIRE_INTEGER))?,
        })
    }
}

impl TryFrom<wire::ToolLimits> for ToolLimits {
    type Error = ToolContractError;
    fn try_from(wire: wire::ToolLimits) -> Result<Self, ToolContractError> {
        let limits = Self {
            max_concurrent: wire.max_concurrent,
            max_input_bytes: wire.max_input_bytes,
            max_output_bytes: wire.max_output_bytes,
            execution_deadline: Duration::from_millis(wire.execution_deadline_ms),
        };
        limits.validate()?;
        Ok(limits)
    }
}

impl serde::Serialize for ToolLimits {
    /// # Errors
    /// The serializer's error carrying [`ToolLimits::validate`]'s message when a limit is
    /// invalid: JSON that would not decode is never written.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let wire = self.to_wire().map_err(serde::ser::Error::custom)?;
        serde::Serialize::serialize(&wire, serializer)
    }
}

/// How a tool runs, and so what cancelling one of its calls guarantees. Every duration is a
/// whole number of milliseconds, 1 ms to [`MAX_WIRE_INTEGER`] ms.
///
/// On the wire, an object tagged by `type` with the durations in milliseconds
/// (`$defs/ToolExecutionClass` in `schema/canonical/execution-class.schema.json`):
///
/// ```
/// use std::time::Duration;
/// use serde_json::json;
/// use toolcall_contracts::canonical::ToolExecutionClass;
///
/// let class = ToolExecutionClass::ProcessIsolated {
///     grace: Duration::from_millis(500),
///     kill_deadline: Duration::from_secs(2),
/// };
/// let wire = json!({"type": "process_isolated", "grace_ms": 500, "kill_deadline_ms": 2000});
/// assert_eq!(serde_json::to_value(class)?, wire);
/// assert_eq!(serde_json::from_value::<ToolExecutionClass>(wire)?, class);
/// assert_eq!(
///     serde_json::from_value::<ToolExecutionClass>(json!({"type": "abortable_at_yield", "grace_ms": 0}))
///         .unwrap_err()
///         .to_string(),
///     "`grace_ms` must be a whole number of milliseconds from 1 to 9007199254740991"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(try_from = "wire::ToolExecutionClass")]
pub enum ToolExecutionClass {
    /// Runs in the runtime's process and stops only by cooperating. Cancelling asks the call
    /// to stop and waits up to `grace` for it; nothing stops a call that does not cooperate, so
    /// the only guarantee is the request (`"type": "cooperative_in_process"`).
    CooperativeInProcess {
        /// How long a cancelled call is given to stop by itself (`grace_ms`).
        grace: Duration,
    },
    /// Runs in the runtime's process as a task that can be aborted at an await point.
    /// Cancelling gives the call `grace` to stop by itself, then aborts it at its next await
    /// point; code between two await points (a blocking loop, a blocking system call) is never
    /// interrupted (`"type": "abortable_at_yield"`).
    AbortableAtYield {
        /// How long a cancelled call is given to stop by itself before it is aborted
        /// (`grace_ms`).
        grace: Duration,
    },
    /// Runs in a child process. Cancelling asks the child to stop and gives it `grace`, then
    /// kills it and waits up to `kill_deadline` for it to exit; a child that has exited is
    /// reaped (never left running, never left a zombie), and one that has not by then is a
    /// termination failure (`"type": "process_isolated"`).
    ProcessIsolated {
        /// How long a cancelled child is given to stop by itself before it is killed
        /// (`grace_ms`).
        grace: Duration,
        /// How long the runtime waits, after the kill, for the child to exit and be reaped
        /// (`kill_deadline_ms`).
        kill_deadline: Duration,
    },
}

impl ToolExecutionClass {
    /// The grace a cancelled call is given to stop by itself.
    #[must_use]
    pub fn grace(&self) -> Duration {
        match *self {
            Self::CooperativeInProcess { grace }
            | Self::AbortableAtYield { grace }
            | Self::ProcessIsolated { grace, .. } => grace,
        }
    }

    /// Checks every duration.
    ///
    /// # Errors
    /// [`ToolContractError::InvalidCancellationGrace`] naming `grace_ms` or `kill_deadline_ms`
    /// (checked in that order) when the duration is zero, longer than [`MAX_WIRE_INTEGER`]
    /// milliseconds, or not a whole number of milliseconds.
    pub fn validate(&self) -> Result<(), ToolContractError> {
        self.to_wire().map(drop)
    }

    /// The wire form, when every duration is valid.
    pub(crate) fn to_wire(self) -> Result<wire::ToolExecutionClass, ToolContractError> {
        let ms = |duration, field| {
            duration_to_ms(duration).ok_or(ToolContractError::InvalidCancellationGrace {
                field,
                max: MAX_WIRE_INTEGER,
            })
        };
        Ok(match self {
            Self::CooperativeInProcess { grace } => wire::ToolExecutionClass::CooperativeInProcess(
                wire::ToolExecutionClassCooperativeInProcess {
                    grace_ms: ms(grace, "grace_ms")?,
                },
            ),
            Self::AbortableAtYield { grace } => wire::ToolExecutionClass::AbortableAtYield(
                wire::ToolExecutionClassAbortableAtYield {
                    grace_ms: ms(grace, "grace_ms")?,
                },
            ),
            Self::ProcessIsolated {
                grace,
                kill_deadline,
            } => {
                wire::ToolExecutionClass::ProcessIsolated(wire::ToolExecutionClassProcessIsolated {
                    grace_ms: ms(grace, "grace_ms")?,
                    kill_deadline_ms: ms(kill_deadline, "kill_deadline_ms")?,
                })
            }
        })
    }
}

impl TryFrom<wire::ToolExecutionClass> for ToolExecutionClass {
    type Error = ToolContractError;
    fn try_from(wire: wire::ToolExecutionClass) -> Result<Self, ToolContractError> {
        let class = match wire {
            wire::ToolExecutionClass::CooperativeInProcess(w) => Self::CooperativeInProcess {
                grace: Duration::from_millis(w.grace_ms),
            },
            wire::ToolExecutionClass::AbortableAtYield(w) => Self::AbortableAtYield {
                grace: Duration::from_millis(w.grace_ms),
            },
            wire::ToolExecutionClass::ProcessIsolated(w) => Self::ProcessIsolated {
                grace: Duration::from_millis(w.grace_ms),
                kill_deadline: Duration::from_millis(w.kill_deadline_ms),
            },
        };
        class.validate()?;
        Ok(class)
    }
}

impl serde::Serialize for ToolExecutionClass {
    /// # Errors
    /// The serializer's error carrying [`ToolExecutionClass::validate`]'s message when a
    /// duration is invalid: JSON that would not decode is never written.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let wire = self.to_wire().map_err(serde::ser::Error::custom)?;
        serde::Serialize::serialize(&wire, serializer)
    }
}

/// `duration` in whole milliseconds when it is 1 to [`MAX_WIRE_INTEGER`] of them.
fn duration_to_ms(duration: Duration) -> Option<u64> {
    if duration.subsec_nanos() % 1_000_000 != 0 {
        return None;
    }
    u64::try_from(duration.as_millis())
        .ok()
        .filter(|ms| (1..=MAX_WIRE_INTEGER).contains(ms))
}
