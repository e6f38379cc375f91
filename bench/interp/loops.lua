-- Integer loops: nested while loops with integer arithmetic.
local function main()
  local total = 0
  local i = 1
  while i <= 6000 do
    local j = 1
    while j <= 1000 do
      total = (total + i * j + j % 7) % 1000000007
      j = j + 1
    end
    i = i + 1
  end
  return total
end

print(main())
