//! Reports as Python values: the library's typed report structs serialised
//! once and read back by Python's own `json`, so a dict has exactly the keys
//! and values of the command line's `--json` output.

use pyo3::{exceptions::PyRuntimeError, prelude::*};
use serde::Serialize;

/// `report` as a Python value (a dict for a struct).
///
/// # Errors
///
/// A report that cannot be serialised (a bug).
pub fn to_python<T: Serialize>(py: Python<'_>, report: &T) -> PyResult<Py<PyAny>> {
    let text = serde_json::to_string(report)
        .map_err(|e| PyRuntimeError::new_err(format!("cannot serialise the report: {e}")))?;
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}
