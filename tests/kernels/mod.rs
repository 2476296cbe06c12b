//! The geometry kernels against an independent exact oracle.

mod oracle;
mod precision;
mod properties;
