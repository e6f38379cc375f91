-- Record updates in a loop: a particle (a table of number fields) bounced
-- in a box, rebuilt every step.
local function trunc(x)
  if x >= 0 then return math.floor(x) else return math.ceil(x) end
end

local function step(p, dt)
  local moved = { x = p.x + p.vx * dt, y = p.y + p.vy * dt, vx = p.vx, vy = p.vy - 9.81 * dt, bounces = p.bounces }
  if moved.y < 0.0 then
    return { x = moved.x, y = 0.0 - moved.y, vx = moved.vx, vy = 0.0 - moved.vy * 0.9, bounces = moved.bounces + 1 }
  elseif moved.x > 100.0 or moved.x < 0.0 then
    return { x = moved.x, y = moved.y, vx = 0.0 - moved.vx, vy = moved.vy, bounces = moved.bounces }
  end
  return moved
end

local function main()
  local p = { x = 1.0, y = 50.0, vx = 7.5, vy = 0.0, bounces = 0 }
  local i = 0
  while i < 600000 do
    p = step(p, 0.001)
    i = i + 1
  end
  return trunc(p.x * 1000.0) * 1000000000 + trunc(p.y * 1000.0) * 1000 + p.bounces
end

print(math.tointeger(main()))
