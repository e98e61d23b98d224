#!/usr/bin/env node
// The `typemcp` command. This file is in the repository (dist/ is not) so that npm links the
// command when it installs the workspace: it skips a bin whose target does not exist yet, and a
// clean clone is built after its install.
require('../dist/bin.js');
