-- Float arithmetic loops: midpoint-rule integrals of two polynomials and
-- a rational function over 3,000,000 subintervals.
local function trunc(x)
  if x >= 0 then return math.floor(x) else return math.ceil(x) end
end

local function main()
  local n = 3000000
  local h = 4.0 / n
  local a = 0.0
  local b = 0.0
  local c = 0.0
  local i = 0
  while i < n do
    local x = (i + 0.5) * h
    a = a + ((x - 2.0) * x + 0.5) * x
    b = b + x * x * x * x - 3.0 * x
    c = c + 1.0 / (1.0 + x * x)
    i = i + 1
  end
  return trunc(a * h * 1000.0) * 1000000000000 + trunc((b * h + 100.0) * 1000.0) * 10000 + trunc(c * h * 1000.0)
end

print(math.tointeger(main()))
