-- A sieve of Eratosthenes: primes below 131,072, run 15 times (the twin of
-- sieve.spx).
local function sieve()
  local n = 131072
  local marks = {}
  for k = 1, n do marks[k] = 0 end
  local count = 0
  local sum = 0
  local i = 2
  while i < n do
    if marks[i + 1] == 0 then
      count = count + 1
      sum = (sum + i) % 1000000007
      if i < 363 then
        local j = i * i
        while j < n do
          marks[j + 1] = 1
          j = j + i
        end
      end
    end
    i = i + 1
  end
  return count * 1000000000 + sum
end

local function main()
  local total = 0
  local r = 0
  while r < 15 do
    total = (total * 3 + sieve()) % 1000000000000000
    r = r + 1
  end
  return total
end

print(main())
