-- Headless Neovim attached to `prewrite lsp`: open a file with an error, read the diagnostics
-- Neovim shows, ask for hover and definition through its LSP API, write all of it as JSON.
-- Arguments (vim.g): prewrite_cmd, prewrite_root, prewrite_file, prewrite_out.
local root = vim.g.prewrite_root
local out = vim.g.prewrite_out
local result = { diagnostics = {}, hover = vim.NIL, definition = vim.NIL, error = vim.NIL }

local function finish()
  local f = io.open(out, "w")
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd("qa!")
end

local ok, err = pcall(function()
  local client_id = vim.lsp.start_client({
    name = "prewrite",
    cmd = { vim.g.prewrite_cmd, "lsp" },
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = "repo" } },
  })
  vim.cmd("edit " .. vim.fn.fnameescape(root .. "/" .. vim.g.prewrite_file))
  vim.bo.filetype = "python"
  vim.lsp.buf_attach_client(0, client_id)
  local got = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 100)
  if not got then error("no diagnostics within 60 s") end
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(result.diagnostics, { lnum = d.lnum, code = d.code, message = d.message })
  end
  local params = { textDocument = { uri = vim.uri_from_bufnr(0) }, position = { line = 2, character = 10 } }
  local hover = vim.lsp.buf_request_sync(0, "textDocument/hover", params, 30000)
  for _, answer in pairs(hover or {}) do
    if answer.result then result.hover = answer.result.contents end
  end
  local def = vim.lsp.buf_request_sync(0, "textDocument/definition", params, 30000)
  for _, answer in pairs(def or {}) do
    if answer.result then result.definition = answer.result end
  end
  vim.lsp.stop_client(client_id)
end)
if not ok then result.error = tostring(err) end
finish()
