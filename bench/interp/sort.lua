-- Vec sorting: a hand-written heapsort next to the table.sort builtin.
-- Tables are 1-based, so the heap's children of r are 2r and 2r + 1.
local function pick(a, child, last)
  if child + 1 <= last and a[child] < a[child + 1] then return child + 1 else return child end
end

local function sift(a, start, last)
  local root = start
  local going = true
  while going and root * 2 <= last do
    local c = pick(a, root * 2, last)
    local rv = a[root]
    local cv = a[c]
    if rv < cv then
      a[root] = cv
      a[c] = rv
      root = c
    else
      going = false
    end
  end
  return a
end

local function heapsort(a)
  local n = #a
  local start = n // 2
  while start > 0 do
    a = sift(a, start, n)
    start = start - 1
  end
  local last = n
  while last > 1 do
    local top = a[1]
    a[1] = a[last]
    a[last] = top
    last = last - 1
    a = sift(a, 1, last)
  end
  return a
end

local function main()
  local total = 0
  local seed = 7
  local round = 0
  while round < 16 do
    local a = {}
    local b = {}
    local i = 0
    while i < 8000 do
      seed = (seed * 1103515245 + 12345) % 2147483648
      a[i + 1] = seed // 1024
      b[i + 1] = seed // 1024
      i = i + 1
    end
    a = heapsort(a)
    table.sort(b)
    local k = 0
    while k < 8000 do
      local x = a[k + 1]
      if x == b[k + 1] then total = (total + x % 1000 * (k % 7 + 1)) % 1000000007 else total = total + 1000000007 end
      k = k + 1
    end
    round = round + 1
  end
  return total
end

print(main())
