-- After the README's snippet (the init file) attached prewrite to the buffer: wait for the
-- diagnostics Neovim shows, write them (and which clients attached) as JSON to vim.g.prewrite_out.
local result = { diagnostics = {}, clients = {}, error = vim.NIL }
local ok, err = pcall(function()
  local got = vim.wait(90000, function() return #vim.diagnostic.get(0) > 0 end, 100)
  for _, client in pairs(vim.lsp.buf_get_clients(0)) do
    table.insert(result.clients, client.name)
  end
  if not got then error("no diagnostics within 90 s") end
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(result.diagnostics, { lnum = d.lnum, code = d.code })
  end
end)
if not ok then result.error = tostring(err) end
local f = io.open(vim.g.prewrite_out, "w")
f:write(vim.fn.json_encode(result))
f:close()
vim.cmd("qa!")
