-- String building: repeated concatenation, integer formatting, string.format.
local function build(round)
  local s = ""
  local i = 0
  while i < 100 do
    s = s .. tostring(i * round % 997)
    s = s .. string.format("%d:%d;", i, round)
    i = i + 1
  end
  return s
end

local function main()
  local total = 0
  local round = 0
  while round < 12000 do
    local s = build(round)
    total = total + #s
    if string.find(s, "99:", 1, true) then total = total + 1 else total = total + 2 end
    round = round + 1
  end
  return total
end

print(main())
