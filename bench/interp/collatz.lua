-- Integer loops with data-dependent branches: total Collatz steps of
-- every start below 120,000.
local function steps(start)
  local n = start
  local k = 0
  while n ~= 1 do
    if n % 2 == 0 then n = n // 2 else n = 3 * n + 1 end
    k = k + 1
  end
  return k
end

local function main()
  local total = 0
  local longest = 0
  local i = 1
  while i < 120000 do
    local s = steps(i)
    total = total + s
    if s > longest then longest = s end
    i = i + 1
  end
  return total * 1000 + longest
end

print(main())
