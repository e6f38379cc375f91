-- Deep, branching recursion: the Takeuchi function.
local function tak(x, y, z)
  if y < x then return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y)) else return z end
end

local function main()
  local total = 0
  local i = 0
  while i < 4 do
    total = total * 100 + tak(22 + i, 16, 8)
    i = i + 1
  end
  return total
end

print(main())
