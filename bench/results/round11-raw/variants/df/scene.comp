#version 460
#extension GL_EXT_control_flow_attributes : require
// The demo's HDR scene, made for eye adaptation: a tunnel whose far end is lit by one small lamp
// opens onto a sunlit plaza. The camera (position and heading from the CPU, a pure function of scene
// time; see ScenePath.java) walks from the dark end out into the sun and back. Everything is traced
// analytically against a few planes, one ray per pixel. Output: linear radiance (RGBA16F storage
// image), in units where a white card in full sun reads ~1000 and one under the lamp ~0.01.
//
//   set 0, binding 0: storage image (define HDR_FORMAT: its qualifier, rgba16f or r11f_g11f_b10f), written (every pixel).
//   push constants: vec4 origin (xyz camera position in metres, w time in seconds),
//                   vec4 corner (xyz the unnormalized ray through pixel (0, 0)'s corner, w width in pixels),
//                   vec4 stepX (xyz the ray's change per pixel to the right, w height in pixels),
//                   vec4 stepY (xyz the ray's change per pixel down).
//   define GROUP_SIZE (from SceneRenderer): the workgroup's side; dispatch ceil(width / GROUP_SIZE) x ceil(height / GROUP_SIZE).
//
// The camera's rays are an affine function of the pixel (set up once per frame on the CPU), so a
// pixel's ray costs three multiply-adds and one normalization, and the footprint rays below are the
// same ray plus one step: no trigonometry per pixel. Transcendentals (the special-function units are a
// sixteenth of the arithmetic rate) are kept to a handful per pixel.
//
// Texture patterns are box-filtered over each pixel's footprint (the hit points of the next pixel's
// rays on the same plane), so they fade to their mean far away instead of shimmering into moire.
#ifndef GROUP_SIZE
#error GROUP_SIZE (the workgroup's side in pixels) comes from SceneRenderer, which dispatches by it
#endif
layout(local_size_x = GROUP_SIZE, local_size_y = GROUP_SIZE) in;
#ifndef HDR_FORMAT
#define HDR_FORMAT rgba16f
#endif
layout(set = 0, binding = 0, HDR_FORMAT) writeonly uniform image2D hdr;

layout(push_constant) uniform Push {
    vec4 origin;
    vec4 corner;
    vec4 stepX;
    vec4 stepY;
} pc;

// Geometry (metres). The tunnel is |x| < HALF_W, 0 < y < TUNNEL_H, 0 < z < MOUTH_Z; its mouth is a
// hole in a cliff face, the plane z = MOUTH_Z up to CLIFF_H; the plaza (y = 0) lies beyond it.
const float HALF_W = 2.0;
const float TUNNEL_H = 3.0;
const float MOUTH_Z = 30.0;
const float CLIFF_H = 14.0;
const vec3 LAMP = vec3(0.0, 2.7, 4.0);
const float LAMP_RADIUS = 0.06;
const float LAMP_INTENSITY = 0.6;         // radiant intensity of the bulb, in the scene's units per steradian
const vec3 SUN_DIR = vec3(0.31622777, 0.42163702, 0.84327404);   // normalize(0.3, 0.4, 0.8): ahead and above
const float SUN_ILLUMINANCE = 20000.0;    // on a surface facing the sun
const float SKY_ILLUMINANCE = 5000.0;     // from the whole sky on an upward surface
const float SUN_COS = 0.99965;            // cosine of the sun disc's angular radius (~1.5 degrees)
const float SUN_RADIANCE = 60000.0;       // bright, and still within half-float range
const float PI = 3.14159265;

// A square wave of period 2 (+1 on [0,1), -1 on [1,2)) averaged over [x - w/2, x + w/2]: the
// difference of its integral, a triangle wave, at both ends divided by w.
float squareIntegral(float x) {
    return 1.0 - abs(1.0 - mod(x, 2.0));
}
float filteredSquare(float x, float w) {
    w = max(w, 1e-4);
    return (squareIntegral(x + 0.5 * w) - squareIntegral(x - 0.5 * w)) / w;
}
// Checker 0..1 of unit tiles at p, box-filtered over a footprint of w tiles.
float checker(vec2 p, vec2 w) {
    return 0.5 - 0.5 * filteredSquare(p.x, w.x) * filteredSquare(p.y, w.y);
}

vec3 skyRadiance(vec3 d) {
    float up = clamp(d.y, 0.0, 1.0);
    vec3 horizon = vec3(1.00, 0.95, 0.90) * 2400.0;
    vec3 zenith = vec3(0.35, 0.55, 1.00) * 1500.0;
    vec3 sky = mix(horizon, zenith, sqrt(up));
    float c = dot(d, SUN_DIR);
    float glow = max(c, 0.0);
    glow *= glow; glow *= glow; glow *= glow; glow *= glow; glow *= glow; glow *= glow;   // c^64
    sky += vec3(1.0, 0.85, 0.6) * 2500.0 * glow;   // glow around the sun
    [[dont_flatten]] if (c > SUN_COS) {
        sky = vec3(SUN_RADIANCE);
    }
    return d.y < 0.0 ? vec3(600.0) : sky;   // below the horizon (never seen over the plaza's edge)
}

// The camera ray through a point of the image (in pixels, y down), not normalized.
vec3 rayThrough(vec2 pixel) {
    return pc.corner.xyz + pixel.x * pc.stepX.xyz + pixel.y * pc.stepY.xyz;
}

// The plane coordinate[axis]'s other two coordinates of p.
vec2 planeCoordinates(vec3 p, int axis) {
    return axis == 0 ? p.zy : axis == 1 ? p.xz : p.xy;
}

// Where the ray o + t d (any length of d) meets the plane coordinate[axis] = value; the other two coordinates.
vec2 onPlane(vec3 o, vec3 d, int axis, float value) {
    return planeCoordinates(o + ((value - o[axis]) / d[axis]) * d, axis);
}

struct Hit {
    int surface;   // 0 sky, 1 plaza, 2 cliff, 3 tunnel floor, 4 tunnel wall, 5 tunnel ceiling, 6 back wall, 7 lamp
    int axis;      // the plane's axis (for the footprint)
    float value;   // the plane's coordinate
    vec3 p;
    vec3 n;
    float t;
};

// Inside the tunnel (o within it, or on its mouth): the face the ray leaves through; the mouth means outdoors.
bool traceTunnel(vec3 o, vec3 d, vec3 invD, inout Hit h) {
    vec3 bound = vec3(d.x > 0.0 ? HALF_W : -HALF_W, d.y > 0.0 ? TUNNEL_H : 0.0, d.z > 0.0 ? MOUTH_Z : 0.0);
    vec3 t = (bound - o) * invD;
    [[dont_flatten]] if (t.z <= t.x && t.z <= t.y) {
        [[dont_flatten]] if (d.z > 0.0) {
            return false;   // out through the mouth
        }
        h = Hit(6, 2, 0.0, o + t.z * d, vec3(0, 0, 1), t.z);
    } else [[dont_flatten]] if (t.y <= t.x) {
        h = d.y > 0.0 ? Hit(5, 1, TUNNEL_H, o + t.y * d, vec3(0, -1, 0), t.y) : Hit(3, 1, 0.0, o + t.y * d, vec3(0, 1, 0), t.y);
    } else {
        h = Hit(4, 0, bound.x, o + t.x * d, vec3(-sign(d.x), 0, 0), t.x);
    }
    return true;
}

Hit trace(vec3 o, vec3 d, vec3 invD) {
    Hit h = Hit(0, 0, 0.0, o, vec3(0), 0.0);
    bool inside = o.z < MOUTH_Z && abs(o.x) < HALF_W && o.y < TUNNEL_H;
    [[dont_flatten]] if (!inside && d.z < 0.0) {
        float t = (MOUTH_Z - o.z) * invD.z;
        vec3 p = o + t * d;
        [[dont_flatten]] if (p.y > 0.0 && p.y < CLIFF_H && t > 0.0) {
            [[dont_flatten]] if (abs(p.x) < HALF_W && p.y < TUNNEL_H) {
                o = p;          // through the mouth into the tunnel
                inside = true;
            } else {
                return Hit(2, 2, MOUTH_Z, p, vec3(0, 0, 1), t);
            }
        }
    }
    [[dont_flatten]] if (inside) {
        [[dont_flatten]] if (traceTunnel(o, d, invD, h)) {
            // The lamp's bulb, a small sphere in front of whatever the ray hit.
            vec3 oc = o - LAMP;
            float b = dot(oc, d), c = dot(oc, oc) - LAMP_RADIUS * LAMP_RADIUS;
            float disc = b * b - c;
            float tLamp = -b - sqrt(disc);
            [[dont_flatten]] if (disc > 0.0 && tLamp > 0.0 && tLamp < h.t) {
                h.surface = 7;
            }
            return h;
        }
        o = o + ((MOUTH_Z - o.z) * invD.z) * d;   // continue outdoors from the mouth
    }
    [[dont_flatten]] if (d.y < 0.0) {
        float t = -o.y * invD.y;
        vec3 p = o + t * d;
        [[dont_flatten]] if (p.z >= MOUTH_Z) {
            return Hit(1, 1, 0.0, p, vec3(0, 1, 0), t);
        }
    }
    return h;
}

// Irradiance from the sun at p (normal n): lit unless the tunnel's rock is in the way.
float sunLight(vec3 p, vec3 n) {
    float cosine = max(dot(n, SUN_DIR), 0.0);
    [[dont_flatten]] if (p.z < MOUTH_Z - 1e-3) {
        vec3 q = p + SUN_DIR * ((MOUTH_Z - p.z) * (1.0 / SUN_DIR.z));
        [[dont_flatten]] if (abs(q.x) > HALF_W || q.y > TUNNEL_H) {
            return 0.0;
        }
    }
    return SUN_ILLUMINANCE * cosine;
}

// Daylight reaching into the tunnel fades with depth (a stand-in for the bounces through the mouth).
float daylight(vec3 p, vec3 n) {
    float depth = max(MOUTH_Z - p.z, 0.0);
    float open = p.z >= MOUTH_Z ? 1.0 : 0.35 * exp2(depth * (-1.0 / (2.5 * 0.69314718)));
    return SKY_ILLUMINANCE * open * (0.6 + 0.4 * n.y);
}

float lampLight(vec3 p, vec3 n) {
    [[dont_flatten]] if (p.z > MOUTH_Z) {
        return 0.0;
    }
    vec3 l = LAMP - p;
    float d2 = dot(l, l);
    float r = inversesqrt(d2);
    return LAMP_INTENSITY * max(dot(n, l), 0.0) * (r * r * r);
}

// Albedo with its pattern filtered over the pixel footprint (uv and the neighbours' uv).
vec3 albedo(Hit h, vec2 uv, vec2 width) {
    [[dont_flatten]] if (h.surface == 1) {        // plaza: 2 m stone tiles
        return mix(vec3(0.16, 0.15, 0.13), vec3(0.42, 0.40, 0.36), checker(uv / 2.0, width / 2.0));
    } else [[dont_flatten]] if (h.surface == 2) { // cliff: rock in horizontal courses
        return mix(vec3(0.22, 0.19, 0.16), vec3(0.30, 0.26, 0.21), 0.5 + 0.5 * filteredSquare(uv.y / 0.75, width.y / 0.75));
    } else [[dont_flatten]] if (h.surface == 3) { // tunnel floor: 1 m tiles
        return mix(vec3(0.10, 0.10, 0.11), vec3(0.30, 0.29, 0.27), checker(uv, width));
    } else [[dont_flatten]] if (h.surface == 4 || h.surface == 6) {   // walls: 1.5 m panels
        return mix(vec3(0.35, 0.33, 0.30), vec3(0.45, 0.42, 0.38), 0.5 + 0.5 * filteredSquare(uv.x / 1.5, width.x / 1.5));
    }
    return vec3(0.25);           // ceiling
}

void main() {
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    [[dont_flatten]] if (pixel.x >= int(pc.corner.w) || pixel.y >= int(pc.stepX.w)) {
        return;
    }
    vec3 o = pc.origin.xyz;
    vec3 ray = rayThrough(vec2(pixel) + 0.5);
    vec3 d = normalize(ray);
    vec3 invD = 1.0 / d;
    Hit h = trace(o, d, invD);
    vec3 radiance;
    [[dont_flatten]] if (h.surface == 0) {
        radiance = skyRadiance(d);
    } else [[dont_flatten]] if (h.surface == 7) {
        radiance = vec3(1.0, 0.8, 0.55) * (LAMP_INTENSITY / (PI * LAMP_RADIUS * LAMP_RADIUS));
    } else {
        // The pixel's footprint: this plane's coordinates under the rays of the next pixel over and down.
        vec2 uv = planeCoordinates(h.p, h.axis);
        // The plane's axis as a mask (its normal is axis-aligned): no dynamic indexing.
        vec3 axisMask = abs(h.n);
        float k = h.value - dot(o, axisMask);
        vec3 rx = ray + pc.stepX.xyz, ry = ray + pc.stepY.xyz;
        vec3 w3 = abs(o + (k / dot(rx, axisMask)) * rx - h.p) + abs(o + (k / dot(ry, axisMask)) * ry - h.p);
        vec2 width = planeCoordinates(w3, h.axis);
        vec3 a = albedo(h, uv, width);
        float e = sunLight(h.p, h.n) + daylight(h.p, h.n) + lampLight(h.p, h.n);
        radiance = a / PI * e * vec3(1.0, 0.97, 0.92);
    }
    imageStore(hdr, pixel, vec4(radiance, 1.0));
}
