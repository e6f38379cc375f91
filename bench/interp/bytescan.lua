-- Byte scanning at scale: a byte buffer filled to 1,000,000 bytes, then
-- scanned with checked indexing into a running hash.
local function fill(n)
  local buf = {}
  local seed = 7
  local i = 0
  while i < n do
    seed = (seed * 75 + 74) % 65537
    buf[i + 1] = seed % 256
    i = i + 1
  end
  return buf
end

local function hash(data)
  local n = #data
  local h = 5381
  local i = 0
  while i < n do
    local b = data[i + 1] or 0
    h = (h * 33 + b) % 4294967311
    i = i + 1
  end
  return h
end

local function main()
  local buf = fill(1000000)
  local total = 0
  local pass = 0
  while pass < 3 do
    total = (total * 7 + hash(buf)) % 1000000000000
    pass = pass + 1
  end
  return total
end

print(main())
