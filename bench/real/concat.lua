-- build a CSV line by line with s = s .. x (quadratic), plus pcall'd errors
local n = tonumber(arg[1])
local s = ""
local errs = 0
for i = 1, n do
  s = s .. string.format("%d,%s\n", i, ("x"):rep(i % 7))
  local ok = pcall(function() if i % 3 == 0 then error("bad row " .. i) end end)
  if not ok then errs = errs + 1 end
end
print(#s, errs)
