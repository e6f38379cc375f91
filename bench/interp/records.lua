-- Record-heavy code: small records (tables) built, read, and copied with updates.
local function add(a, b)
  return { x = (a.x + b.x) % 100000, y = (a.y + b.y) % 100000 }
end

local function step(b)
  local v = { x = (b.vel.x * 3 + 7) % 1001, y = (b.vel.y * 5 + 11) % 997 }
  local p = add(b.pos, v)
  local moved = { pos = p, vel = v, hits = b.hits }
  if p.x < p.y then
    return { pos = moved.pos, vel = moved.vel, hits = moved.hits + 1 }
  else
    return moved
  end
end

local function main()
  local b = { pos = { x = 1, y = 2 }, vel = { x = 3, y = 4 }, hits = 0 }
  local i = 0
  while i < 600000 do
    b = step(b)
    i = i + 1
  end
  return b.pos.x * 1000000 + b.pos.y * 10 + b.hits
end

print(main())
