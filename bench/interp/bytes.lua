-- Byte scanning: fill a byte buffer, then scan it for words, digits and a hash.
local function fill()
  local t = {}
  local seed = 42
  local i = 0
  while i < 8000 do
    seed = (seed * 1103515245 + 12345) % 2147483648
    local r = seed // 65536 % 100
    local b
    if r < 18 then b = 32 elseif r < 30 then b = 48 + r % 10 else b = 97 + r % 26 end
    t[i + 1] = b
    i = i + 1
  end
  return string.char(table.unpack(t))
end

local function scan(data)
  local byte = string.byte
  local n = #data
  local words = 0
  local digits = 0
  local hash = 0
  local inword = false
  local i = 0
  while i < n do
    local b = byte(data, i + 1)
    if b == 32 then inword = false elseif not inword then words = words + 1; inword = true end
    if b >= 48 and b <= 57 then digits = digits + 1 end
    hash = (hash * 31 + b) % 1000003
    i = i + 1
  end
  return words * 1000000000000 + digits * 1000000 + hash
end

local function main()
  local view = fill()
  local total = 0
  local pass = 0
  while pass < 300 do
    total = (total + scan(view)) % 1000000000000000
    pass = pass + 1
  end
  return total
end

print(main())
