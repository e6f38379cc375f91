-- Integer loops with data-dependent branches: Euclid's algorithm over
-- every pair below 700.
local function gcd(a, b)
  local x = a
  local y = b
  while y ~= 0 do
    local r = x % y
    x = y
    y = r
  end
  return x
end

local function main()
  local total = 0
  local coprime = 0
  local i = 1
  while i < 700 do
    local j = 1
    while j < 700 do
      local g = gcd(i, j)
      total = total + g
      if g == 1 then coprime = coprime + 1 end
      j = j + 1
    end
    i = i + 1
  end
  return total * 1000000 + coprime
end

print(main())
