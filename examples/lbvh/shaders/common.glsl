// Shared by the LBVH example's compute shaders: buffers are reached through buffer device
// addresses (GL_EXT_buffer_reference), arguments come in push constants, no descriptor sets.
// Every index into an array below is < 2^31 (at most 2^25 triangles: 9N floats, 8(2N - 1)
// node words), so the signed access-chain indices of SPIR-V never wrap.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer F32s { float v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32s { uint v[]; };
// Written by one invocation and read by another of the same dispatch (the refit).
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer CoherentU32s { uint v[]; };

const uint LEAF = 0xFFFFFFFFu;
// Node i is 8 words at word 8 i: lo.xyz (f32 bits), hi.xyz, a, b.

// Invocation i handles elements i, i + stride, ...: the dispatch is capped at 65535 workgroups
// (the guaranteed maxComputeWorkGroupCount), so each invocation loops at most 2^25 / (65535 *
// 256) + 1 = 3 times.
uint grid_stride() { return gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
