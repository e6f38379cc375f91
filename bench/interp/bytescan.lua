-- Byte scanning at scale: 1,000,000 bytes in eight buffers of 125,000,
-- each filled, then scanned three times with checked indexing into a
-- running hash (the twin of bytescan.spx).
local function fill(start, n)
  local buf = {}
  local seed = start
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

local function chunk(k, total)
  local buf = fill(7 + k, 125000)
  local t = total
  local pass = 0
  while pass < 3 do
    t = (t * 7 + hash(buf)) % 1000000000000
    pass = pass + 1
  end
  return t
end

local function main()
  local total = 0
  local k = 0
  while k < 8 do
    total = chunk(k, total)
    k = k + 1
  end
  return total
end

print(main())
