/* Record-heavy code: small structs built, read and updated (C twin of records.spx). */
#include <stdint.h>
#include <stdio.h>

typedef struct Vec2 {
	int64_t x, y;
} Vec2;

typedef struct Body {
	Vec2 pos, vel;
	int64_t hits;
} Body;

static Vec2
add(Vec2 a, Vec2 b)
{
	return (Vec2){ (a.x + b.x) % 100000, (a.y + b.y) % 100000 };
}

static Body
step(Body b)
{
	Vec2 v = { (b.vel.x * 3 + 7) % 1001, (b.vel.y * 5 + 11) % 997 };
	Vec2 p = add(b.pos, v);
	Body moved = b;
	moved.pos = p;
	moved.vel = v;
	if (p.x < p.y)
		moved.hits++;
	return moved;
}

int
main(void)
{
	Body b = { { 1, 2 }, { 3, 4 }, 0 };
	for (int64_t i = 0; i < 60000000; i++)
		b = step(b);
	printf("%lld\n", (long long)(b.pos.x * 1000000 + b.pos.y * 10 + b.hits));
	return 0;
}
