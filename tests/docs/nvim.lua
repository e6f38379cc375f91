-- tests/docs/nvim.lua SNIPPET — runs one Neovim configuration of docs/editors.md
-- (tests/docs-test.sh) under lua5.4 with stand-ins for the Neovim and
-- nvim-lspconfig API it calls, and prints the server's command line (one word
-- a line) and its filetypes, so that the test starts exactly what the editor
-- would. Only the functions the snippets are documented to call exist: a
-- misspelt API fails here, as it would in Neovim.
local started
local function cmdline(cfg)
  assert(type(cfg) == "table" and type(cfg.cmd) == "table", "no cmd = { … } table")
  assert(cfg.name == nil or type(cfg.name) == "string", "name is not a string")
  return cfg
end
local configs = {}
local modules = {
  ["lspconfig.configs"] = configs,
  ["lspconfig.util"] = {
    root_pattern = function(...)
      for _, p in ipairs({ ... }) do assert(type(p) == "string") end
      return function() return nil end
    end,
  },
  ["lspconfig"] = setmetatable({}, {
    __index = function(_, name)
      local c = assert(configs[name], "lspconfig has no configuration " .. tostring(name))
      return { setup = function(opts)
        assert(type(opts) == "table", "setup takes a table")
        started = cmdline(c.default_config)
      end }
    end,
  }),
}
require = function(name) return assert(modules[name], "no module " .. name) end
vim = {
  lsp = { start = function(cfg) started = cmdline(cfg) end },
  fs = { root = function(buf, markers) assert(type(buf) == "number" and type(markers) == "table"); return nil end },
  fn = { getcwd = function() return "/" end },
}
local chunk = assert(loadfile(arg[1], "t"))
chunk()
assert(started, "the snippet starts no server")
for _, w in ipairs(started.cmd) do print("cmd " .. w) end
for _, ft in ipairs(started.filetypes or {}) do print("filetype " .. ft) end
if started.root_dir ~= nil then
  assert(type(started.root_dir) == "string" or type(started.root_dir) == "function", "root_dir")
end
