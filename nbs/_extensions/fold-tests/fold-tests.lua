-- Quarto filter for the docs site: a notebook cell whose code is a test (fastcore `test_*` calls or
-- `assert`, and no `#| export`) is folded into a <details> block, so lecture pages read as text and
-- code, with the tests one click away. .ci/preview.py does the same for the offline preview.
local function is_test(code)
  if code:match("#|%s*export") then return false end
  for line in (code .. "\n"):gmatch("(.-)\n") do
    if line:match("^%s*test_[%w_]+%(") or line:match("^%s*assert[%s%(]") then return true end
  end
  return false
end

function Div(el)
  if not el.classes:includes("cell") then return nil end
  for _, block in ipairs(el.content) do
    if block.t == "CodeBlock" and is_test(block.text) then
      return {
        pandoc.RawBlock("html", '<details class="dpnotes-tests"><summary>tests</summary>'),
        el,
        pandoc.RawBlock("html", "</details>"),
      }
    end
  end
  return nil
end
