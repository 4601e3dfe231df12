// @generated from src/select/shared_constants.rs by a unit test; do not edit.
// `VKALGO_UPDATE_GLSL=1 cargo test -p vkalgo --lib shared_constants` rewrites it.
// The select's mode codes, options and look-back scratch layout.
#ifndef VKALGO_GENERATED_SELECT_GLSL
#define VKALGO_GENERATED_SELECT_GLSL

#define SELECT_MODE_FLAGGED 0u
#define SELECT_MODE_UNIQUE 2u
#define SELECT_SCRATCH_STATUS 16ul

#endif
