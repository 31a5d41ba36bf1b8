-- a job queue that keeps the newest job first: table.insert(q, 1, job)
local n = tonumber(arg[1])
local rounds = tonumber(arg[2])
local sum = 0
for r = 1, rounds do
  local q = {}
  for i = 1, n do
    table.insert(q, 1, {id = i, name = "job" .. i})
  end
  -- other real work: format and hash every job
  for i = 1, #q do
    local s = string.format("%d:%s", q[i].id, q[i].name)
    for c = 1, #s do sum = (sum * 31 + s:byte(c)) % 1000000007 end
  end
end
print(sum)
