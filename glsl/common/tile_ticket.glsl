// The tile a single-pass kernel's workgroup takes: the next value of a u32 counter in its
// scratch (zero before the dispatch), so that every lower tile belongs to a workgroup that has
// already started. A driver that runs workgroups in per-thread blocks (lavapipe) would
// otherwise start a block's first tile long before its predecessors and make it compute them
// one by one; that walk also exhausts lavapipe's budget of loop iterations per invocation,
// after which loops exit early.
#ifndef VKALGO_TILE_TICKET_GLSL
#define VKALGO_TILE_TICKET_GLSL

// 1: tiles by ticket (CPU drivers); 0: tile t is workgroup t (GPUs start workgroups in order,
// and a ticket costs an atomic and a barrier per tile). Set for every pipeline from
// src/core/tuning.rs (docs/tuning/core.md#tile-tickets).
layout(constant_id = 7) const uint TILE_TICKETS = 0;

shared uint s_tile_ticket;

// The workgroup's tile, in every invocation: by ticket from the u32 at `counter_addr` (zero
// before the dispatch) where TILE_TICKETS, else the workgroup id. Workgroup-uniform control
// flow.
uint lookback_tile(uint64_t counter_addr) {
    if (TILE_TICKETS == 0u) {
        return linear_workgroup_id();
    }
    if (gl_LocalInvocationIndex == 0u) {
        s_tile_ticket = atomicAdd(U32AtomicRef(counter_addr).v[0], 1u);
    }
    barrier();
    return s_tile_ticket;
}

#endif
