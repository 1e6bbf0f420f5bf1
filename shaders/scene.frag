#version 460
// The demo's HDR scene, a pure function of time so runs are reproducible: a sun crosses the sky over
// a checkered plain, the whole scene passes through a 12-stop day/night sweep, and an emissive panel
// flashes. Output is linear HDR radiance (RGBA16F).
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 radiance;
layout(push_constant) uniform Push {
    float time;     // seconds of scene time
    float aspect;   // width / height
} pc;

const float PI = 3.14159265;

// Scene brightness in stops: a slow sweep from night (-6) to noon (+6) and back, 20 s per cycle.
float sceneEV(float t) {
    return 6.0 * sin(2.0 * PI * t / 20.0);
}

void main() {
    vec2 p = vec2((uv.x - 0.5) * pc.aspect, 1.0 - uv.y);   // x centred, y up from the bottom
    float t = pc.time;
    float horizon = 0.35;
    vec2 sun = vec2(0.9 * pc.aspect * (fract(t / 20.0) - 0.5), horizon + 0.5 * sin(PI * fract(t / 20.0)));
    vec3 color;
    if (p.y > horizon) {
        // Sky: deeper blue upwards, a warm glow near the sun.
        float h = (p.y - horizon) / (1.0 - horizon);
        color = mix(vec3(0.55, 0.65, 0.85), vec3(0.12, 0.25, 0.6), h);
        float d = distance(p, sun);
        color += vec3(1.0, 0.7, 0.4) * 0.4 * exp(-4.0 * d);
        if (d < 0.05) {
            color = vec3(60.0, 55.0, 45.0);   // the sun's disc, far brighter than the sky
        }
    } else {
        // Ground: a checkerboard in perspective, lit by the sun's height.
        float depth = 0.08 / max(horizon - p.y, 1e-3);
        vec2 g = vec2(p.x * depth * 6.0, depth * 3.0 - t * 0.2);
        float checker = mod(floor(g.x) + floor(g.y), 2.0);
        vec3 albedo = mix(vec3(0.20, 0.35, 0.15), vec3(0.45, 0.40, 0.30), checker);
        float light = 0.3 + 0.7 * clamp(sun.y - horizon + 0.2, 0.0, 1.0);
        color = albedo * light * mix(0.4, 1.0, clamp(1.0 - depth * 0.2, 0.0, 1.0));
    }
    // An emissive panel that flashes for 0.25 s every 3 s.
    vec2 panel = vec2(-0.35 * pc.aspect, 0.55);
    if (abs(p.x - panel.x) < 0.06 && abs(p.y - panel.y) < 0.04) {
        float on = step(fract(t / 3.0), 0.083);
        color = mix(vec3(0.05, 0.02, 0.02), vec3(400.0, 30.0, 20.0), on);
    }
    radiance = vec4(color * exp2(sceneEV(t)), 1.0);
}
