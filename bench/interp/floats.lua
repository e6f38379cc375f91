-- Floating point: Mandelbrot escape counts over a grid.
local function escape(cr, ci)
  local zr = 0.0
  local zi = 0.0
  local k = 0
  while k < 64 and zr * zr + zi * zi <= 4.0 do
    local t = zr * zr - zi * zi + cr
    zi = 2.0 * zr * zi + ci
    zr = t
    k = k + 1
  end
  return k
end

local function main()
  local total = 0
  local y = 0
  while y < 360 do
    local ci = -1.25 + (y + 0.0) * 2.5 / 360.0
    local x = 0
    while x < 540 do
      local cr = -2.25 + (x + 0.0) * 3.0 / 540.0
      total = total + escape(cr, ci)
      x = x + 1
    end
    y = y + 1
  end
  return total
end

print(main())
