-- A sieve of Eratosthenes: primes below 2,000,000.
local function main()
  local n = 2000000
  local marks = {}
  for k = 1, n do marks[k] = 0 end
  local count = 0
  local sum = 0
  local i = 2
  while i < n do
    if marks[i + 1] == 0 then
      count = count + 1
      sum = (sum + i) % 1000000007
      if i < 1415 then
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

print(main())
