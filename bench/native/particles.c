/* Record updates in a loop: a particle bounced in a box, rebuilt every step (C twin of particles.spx). */
#include <stdint.h>
#include <stdio.h>

typedef struct {
	double x, y, vx, vy;
	int64_t bounces;
} Particle;

static Particle
step(Particle p, double dt)
{
	Particle moved = p;
	moved.x = p.x + p.vx * dt;
	moved.y = p.y + p.vy * dt;
	moved.vy = p.vy - 9.81 * dt;
	if (moved.y < 0.0) {
		Particle r = moved;
		r.y = 0.0 - moved.y;
		r.vy = 0.0 - moved.vy * 0.9;
		r.bounces = moved.bounces + 1;
		return r;
	}
	if (moved.x > 100.0 || moved.x < 0.0) {
		Particle r = moved;
		r.vx = 0.0 - moved.vx;
		return r;
	}
	return moved;
}

int
main(void)
{
	Particle p = { 1.0, 50.0, 7.5, 0.0, 0 };
	for (int64_t i = 0; i < 320000000; i++)
		p = step(p, 0.001);
	printf("%lld\n", (long long)((int64_t)(p.x * 1000.0) * 1000000000 + (int64_t)(p.y * 1000.0) * 1000 + p.bounces));
	return 0;
}
