//! The `intercept-sim` binary: the command line of [`intercept_sim::app`].

use std::process::ExitCode;

fn main() -> ExitCode {
    intercept_sim::app::main(std::env::args_os())
}
