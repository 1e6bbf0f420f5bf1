// Reduction operators selected by a specialization constant, so each pipeline folds to one op.
// Included by reduce.comp. OP: 0 = sum, 1 = min, 2 = max.

#define OP_SUM 0u
#define OP_MIN 1u
#define OP_MAX 2u

// Identities as bit patterns: glslang folds them, and no literal can spell an infinity.
float opIdentity() {
    return OP == OP_SUM ? 0.0 : OP == OP_MIN ? uintBitsToFloat(0x7f800000u) : uintBitsToFloat(0xff800000u);
}

float opCombine(float a, float b) {
    return OP == OP_SUM ? a + b : OP == OP_MIN ? min(a, b) : max(a, b);
}

vec4 opCombine(vec4 a, vec4 b) {
    return OP == OP_SUM ? a + b : OP == OP_MIN ? min(a, b) : max(a, b);
}

// Fixed association order: the same inputs give the same bits on every run.
float opFold(vec4 v) {
    return opCombine(opCombine(v.x, v.y), opCombine(v.z, v.w));
}

float opSubgroup(float v) {
    return OP == OP_SUM ? subgroupAdd(v) : OP == OP_MIN ? subgroupMin(v) : subgroupMax(v);
}

// GLSL's min and max may drop a NaN operand, so min/max track NaN on the side (a bit test, which no
// optimiser can assume away). Sums need no tracking: IEEE addition propagates NaN by itself.
bool isNanBits(float x) {
    return (floatBitsToUint(x) & 0x7fffffffu) > 0x7f800000u;
}

bool anyNanBits(vec4 v) {
    return any(greaterThan(floatBitsToUint(v) & uvec4(0x7fffffffu), uvec4(0x7f800000u)));
}

#define CANONICAL_NAN uintBitsToFloat(0x7fc00000u)
