-- SPDX-License-Identifier: GPL-2.0-or-later
-- Values computed by the interpreter: a table sorted with a closure,
-- coroutines, string.format, integer division and floats, a gsub.
local t = {}
for i = 1, 100 do t[#t + 1] = (i * 37) % 101 end
table.sort(t, function(a, b) return a > b end)
print("sorted", t[1], t[2], t[100], #t)
local function gen(n)
  return coroutine.wrap(function()
    local a, b = 0, 1
    for _ = 1, n do coroutine.yield(a); a, b = b, a + b end
  end)
end
local fib = {}
for v in gen(15) do fib[#fib + 1] = v end
print("fib", table.concat(fib, " "))
print(string.format("int %d, idiv %d, float %.5f, pow %g", 2^53 // 1 | 0, 7 // 2, math.pi, 2^0.5))
print((string.gsub("asymu runs lua", "(%w+)", string.upper)))
print("math.type", math.type(1), math.type(1.0), 0x7fffffffffffffff + 1 == math.mininteger)
