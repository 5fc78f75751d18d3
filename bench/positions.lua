-- wrk script: each request asks for a position drawn from the file named by
-- FANO_POSITIONS (one path per line, e.g. /api/v2/standard?position=...),
-- in a fixed pseudo-random order per thread.
local paths = {}
init = function(args)
  for line in io.lines(os.getenv("FANO_POSITIONS")) do paths[#paths + 1] = line end
  math.randomseed(#paths)
end
request = function()
  return wrk.format("GET", paths[math.random(#paths)])
end
