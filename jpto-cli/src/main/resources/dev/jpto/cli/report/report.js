/* Renders the report from the JSON in #report-data. Every chart also records what it drew in #chart-facts, so that a
   test can check the charts' data through the DOM. */
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var facts = {};
  var PALETTE = ['#5470c6', '#91cc75', '#fac858', '#73c0de', '#3ba272', '#fc8452', '#9a60b4', '#ea7ccc',
    '#2f4554', '#61a0a8', '#d48265', '#749f83', '#ca8622', '#bda29a', '#6e7074', '#546570'];

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) {
      e.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
    });
    return e;
  }
  function section(id) { return document.getElementById(id); }
  function note(id, text) { section(id).appendChild(el('p', {'class': 'note'}, [text])); }
  function table(head, rows, numeric) {
    var t = el('table', {}, [el('tr', {}, head.map(function (h) { return el('th', {}, [h]); }))]);
    rows.forEach(function (r) {
      t.appendChild(el('tr', {}, r.map(function (c, i) {
        return c instanceof Node ? el('td', {}, [c]) : el('td', numeric && numeric[i] ? {'class': 'num'} : {}, [c]);
      })));
    });
    return t;
  }
  function bytes(b) {
    var units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    var i = 0;
    while (Math.abs(b) >= 1024 && i < units.length - 1) { b /= 1024; i++; }
    return (i === 0 ? b : b.toFixed(b < 10 ? 2 : 1)) + ' ' + units[i];
  }
  function num(x, digits) { return x === null || x === undefined ? '' : Number(x).toFixed(digits); }
  function chart(parent, height) {
    var div = el('div', {'class': 'chart', 'style': 'height:' + height + 'px'});
    parent.appendChild(div);
    return {div: div, chart: echarts.init(div, null, {renderer: 'canvas'})};
  }
  function max(a) { var m = 0; for (var i = 0; i < a.length; i++) { if (a[i] > m) { m = a[i]; } } return m; }

  // ---- summary ------------------------------------------------------------------------------------------------
  function summary() {
    var s = section('summary');
    var run = data.run;
    var header = data.scope_header;
    if (!run) {
      note('summary', 'No run.json in ' + data.dir + ': run with "jpto run ... --report" for program, stages, '
        + 'outputs and runtime_cfg.' + (header ? ' Platform ' + header.platform + '.' : ''));
      facts.summary = {outcome: data.failure ? 'ERROR' : 'unknown'};
      return;
    }
    document.getElementById('title').textContent = 'jpto report: ' + run.program + ' --preset ' + run.preset;
    var outcome = run.error ? (run.error.exit_code === 1 ? 'FAIL' : 'ERROR') : (run.passed ? 'PASS' : 'FAIL');
    var badge = el('span', {'class': 'badge ' + outcome.toLowerCase(), 'id': 'outcome'}, [outcome]);
    s.appendChild(el('p', {}, [badge, ' ', run.program + ' preset=' + run.preset + ' seed=' + run.seed
      + ' platform=' + run.platform + ' device=' + run.device
      + (run.total_seconds !== undefined ? ' in ' + num(run.total_seconds, 3) + ' s' : '')]));
    if (run.error) {
      s.appendChild(el('p', {}, ['exit code ' + run.error.exit_code
        + (run.error.code ? ', error code ' + run.error.code + ' (' + run.error.code_number + ')' : '')]));
      s.appendChild(el('pre', {'class': 'message'}, [run.error.message]));
    }
    var cols = el('div', {'class': 'cols'}, []);
    s.appendChild(cols);
    if (run.stages) {
      cols.appendChild(el('div', {}, [el('h3', {}, ['Stages']), table(['stage', 'seconds'],
        run.stages.map(function (st) { return [st.name, num(st.seconds, 3)]; }), [false, true])]));
    }
    if (run.outputs && run.outputs.length) {
      cols.appendChild(el('div', {}, [el('h3', {}, ['Outputs']), table(
        ['output', 'verdict', 'dtype', 'shape', 'mismatches', 'max abs error', 'max rel error'],
        run.outputs.map(function (o) {
          return [o.name, el('span', {'class': 'badge ' + (o.verdict === 'PASS' ? 'pass' : 'fail')}, [o.verdict]),
            o.dtype, '[' + o.shape.join(', ') + ']', o.mismatch_count + ' / ' + o.numel,
            o.max_abs_error === null ? '' : Number(o.max_abs_error).toExponential(3),
            o.max_rel_error === null ? '' : Number(o.max_rel_error).toExponential(3)];
        }), [false, false, false, false, true, true, true])]));
    }
    if (run.report) {
      cols.appendChild(el('div', {}, [el('h3', {}, ['Chip']), table(['ring', 'tasks peak / window', 'heap peak / size',
        'dep pool peak / size'], run.report.rings.filter(function (g) {
        return g.task_window_max > 0;
      }).map(function (g) {
        return [g.ring, g.task_window_max + ' / ' + g.task_window, bytes(g.heap_max) + ' / ' + bytes(g.heap_bytes),
          g.dep_pool_max + ' / ' + g.dep_pool];
      })), el('p', {}, [run.report.tasks + ' tasks in ' + num(run.report.elapsed_seconds, 3) + ' s'])]));
    }
    if (run.runtime_cfg) {
      var keys = Object.keys(run.runtime_cfg);
      s.appendChild(el('h3', {}, ['runtime_cfg in force']));
      s.appendChild(table(['key', 'value', 'from'], keys.map(function (k) {
        var v = run.runtime_cfg[k];
        return [k, String(v.value), el('span', {'class': 'src-' + v.source}, [v.source])];
      })));
    }
    facts.summary = {outcome: outcome, stages: run.stages ? run.stages.length : 0,
      outputs: run.outputs ? run.outputs.length : 0};
  }

  // ---- rings --------------------------------------------------------------------------------------------------
  function rings() {
    var t = data.ring_timeline;
    if (!t) {
      note('rings', 'No scope_stats/ring_timeline.json: run with --report or --enable-scope-stats.');
      return;
    }
    facts.rings = {};
    var MAX_MARK_LINES = 200;
    t.rings.forEach(function (series) {
      var r = series.ring;
      var caps = {heap: t.heap[r], tasks: t.task_window[r], deps: t.dep_pool[r]};
      var ms = series.t_us.map(function (x) { return x / 1000; });
      var marks = t.marks.filter(function (m) { return m.ring === r && m.depth > 0; });
      var stop = t.stop && t.stop.ring === r ? t.stop : null;
      var heapMax = max(series.heap);
      section('rings').appendChild(el('h3', {}, ['Ring ' + r + ': heap peak ' + bytes(heapMax) + ' of '
        + bytes(caps.heap) + ' (' + num(100 * heapMax / caps.heap, 1) + '%), ' + series.submits + ' submits'
        + (series.stride > 1 ? ', one point per ' + series.stride + ' submits (maxima)' : '')
        + (stop ? ', STOPPED' : '')]));
      var c = chart(section('rings'), 520);
      c.div.id = 'ring-chart-' + r;
      function line(name, values, i, cap) {
        var markData = [{yAxis: cap, name: 'capacity', label: {formatter: 'capacity', position: 'insideEndTop'},
          lineStyle: {color: '#c0392b', type: 'solid', width: 2}}];
        if (i === 0) {
          marks.slice(0, MAX_MARK_LINES).forEach(function (m) {
            markData.push({xAxis: m.t_us / 1000, name: m.phase + ' ' + m.site,
              lineStyle: {color: m.phase === 'begin' ? '#3ba272' : '#9a60b4', type: 'dashed', width: 1},
              label: {show: false}});
          });
        }
        var s = {name: name, type: 'line', step: 'end', showSymbol: false, xAxisIndex: i, yAxisIndex: i,
          data: values.map(function (v, k) { return [ms[k], v]; }), areaStyle: {opacity: 0.15},
          markLine: {symbol: 'none', silent: false, data: markData}};
        if (stop) {
          var at = i === 0 ? stop.heap : i === 1 ? stop.tasks : stop.deps;
          s.markPoint = {symbol: 'pin', symbolSize: 44, itemStyle: {color: '#c0392b'},
            data: [{coord: [stop.t_us / 1000, at], name: 'stopped', value: 'stop'}],
            label: {formatter: 'stop'}};
        }
        return s;
      }
      var names = ['heap bytes in use', 'task-window slots', 'dep-pool entries'];
      // a peak far below the capacity would be a flat line at zero: then the axis ends above the peak instead
      function axisMax(cap, peak) {
        return peak * 10 < cap ? Math.max(1, Math.ceil(peak * 1.25)) : Math.max(cap, peak);
      }
      function axisName(name, cap, peak, fmt) {
        return peak * 10 < cap ? name + ' (capacity ' + fmt(cap) + ' off scale)' : name;
      }
      var endMs = Math.max(ms.length ? ms[ms.length - 1] : 0, stop ? stop.t_us / 1000 : 0);
      var option = {
        animation: false,
        legend: {data: names, top: 0},
        tooltip: {trigger: 'axis', valueFormatter: function (v) { return String(v); }},
        axisPointer: {link: [{xAxisIndex: 'all'}]},
        grid: [{left: 90, right: 40, top: 40, height: 170}, {left: 90, right: 40, top: 250, height: 90},
          {left: 90, right: 40, top: 370, height: 90}],
        xAxis: [0, 1, 2].map(function (i) {
          return {type: 'value', gridIndex: i, name: i === 2 ? 'ms' : '', min: 0, max: endMs * 1.02,
            axisLabel: {showMaxLabel: false}};
        }),
        yAxis: [
          {type: 'value', gridIndex: 0, name: axisName('heap', caps.heap, heapMax, bytes),
            max: axisMax(caps.heap, heapMax), axisLabel: {formatter: function (v) { return bytes(v); }},
            nameTextStyle: {align: 'left'}},
          {type: 'value', gridIndex: 1, name: axisName('task slots', caps.tasks, max(series.tasks), String),
            max: axisMax(caps.tasks, max(series.tasks)), nameTextStyle: {align: 'left'}},
          {type: 'value', gridIndex: 2, name: axisName('dep entries', caps.deps, max(series.deps), String),
            max: axisMax(caps.deps, max(series.deps)), nameTextStyle: {align: 'left'}}],
        dataZoom: [{type: 'inside', xAxisIndex: [0, 1, 2]}, {type: 'slider', xAxisIndex: [0, 1, 2], bottom: 8}],
        series: [line(names[0], series.heap, 0, caps.heap), line(names[1], series.tasks, 1, caps.tasks),
          line(names[2], series.deps, 2, caps.deps)]
      };
      c.chart.setOption(option);
      var drawn = c.chart.getOption().series;
      facts.rings[r] = {
        heap_max: max(drawn[0].data.map(function (p) { return p[1]; })),
        task_window_max: max(drawn[1].data.map(function (p) { return p[1]; })),
        dep_pool_max: max(drawn[2].data.map(function (p) { return p[1]; })),
        heap_capacity: drawn[0].markLine.data[0].yAxis,
        points: drawn[0].data.length,
        scope_marks: drawn[0].markLine.data.length - 1,
        stop: drawn[0].markPoint ? drawn[0].markPoint.data[0].coord : null
      };
      if (marks.length > MAX_MARK_LINES || t.dropped_marks > 0) {
        note('rings', 'Scope marks drawn: ' + Math.min(marks.length, MAX_MARK_LINES) + ' of '
          + (marks.length + t.dropped_marks) + '.');
      }
    });
  }

  // ---- timeline -----------------------------------------------------------------------------------------------
  function swimlane(trace, title, id) {
    var s = section('timeline');
    var critical = trace.bars.filter(function (b) { return b[3] === 1; }).length;
    s.appendChild(el('h3', {}, [title + ': ' + trace.bars.length + ' tasks on ' + trace.lanes.length + ' lanes, '
      + num(trace.span_us, 1) + ' us'
      + (critical ? '; red outline: the critical path (' + critical + ' tasks)' : '')]));
    var kernels = {};
    trace.info.forEach(function (inf) { if (!(inf[1] in kernels)) { kernels[inf[1]] = Object.keys(kernels).length; } });
    var c = chart(s, Math.min(900, 120 + trace.lanes.length * 22));
    c.div.id = id;
    var values = trace.bars.map(function (b, i) {
      return [b[0], b[1], b[1] + b[2], i, b[3], kernels[trace.info[i][1]]];
    });
    c.chart.setOption({
      animation: false,
      tooltip: {formatter: function (p) {
        var v = p.value;
        var inf = trace.info[v[3]];
        return 'task ' + inf[0] + '<br>kernel ' + inf[1] + '<br>' + num(v[1], 1) + ' to ' + num(v[2], 1)
          + ' us (' + num(v[2] - v[1], 1) + ' us)' + (inf[2] ? '<br>' + inf[2] : '')
          + (v[4] ? '<br>critical path' : '');
      }},
      grid: {left: 90, right: 30, top: 20, bottom: 70},
      dataZoom: [{type: 'slider', xAxisIndex: 0, filterMode: 'weakFilter', bottom: 10},
        {type: 'inside', xAxisIndex: 0, filterMode: 'weakFilter'}],
      xAxis: {type: 'value', name: 'us', min: 0, scale: true},
      yAxis: {type: 'category', data: trace.lanes, inverse: true},
      series: [{type: 'custom', encode: {x: [1, 2], y: 0}, data: values,
        renderItem: function (params, api) {
          var lane = api.value(0);
          var start = api.coord([api.value(1), lane]);
          var end = api.coord([api.value(2), lane]);
          var h = api.size([0, 1])[1] * 0.7;
          var shape = echarts.graphic.clipRectByRect(
            {x: start[0], y: start[1] - h / 2, width: Math.max(1, end[0] - start[0]), height: h},
            {x: params.coordSys.x, y: params.coordSys.y, width: params.coordSys.width, height: params.coordSys.height});
          var crit = api.value(4) === 1;
          return shape && {type: 'rect', shape: shape, style: {fill: PALETTE[api.value(5) % PALETTE.length],
            stroke: crit ? '#d0021b' : null, lineWidth: crit ? 2 : 0}};
        }}]
    });
    var drawn = c.chart.getOption().series[0].data;
    return {bars: drawn.length, lanes: trace.lanes.length,
      critical: drawn.filter(function (v) { return v[4] === 1; }).length,
      end_us: max(drawn.map(function (v) { return v[2]; }))};
  }

  function timeline() {
    if (!data.host_trace) {
      note('timeline', 'No chip_swimlane.json: run with --report or --enable-chip-swimlane.');
      return;
    }
    facts.timeline = {};
    if (data.critical_path) {
      var cp = data.critical_path;
      section('timeline').appendChild(el('p', {}, ['Critical path: ' + cp.tasks + ' tasks, ' + num(cp.length_us, 1)
        + ' us of task time, ' + num(cp.wall_us > 0 ? 100 * cp.length_us / cp.wall_us : 0, 1)
        + '% of the ' + num(cp.wall_us, 1) + ' us from first start to last end (host time).']));
    }
    facts.timeline.host = swimlane(data.host_trace, 'Host time', 'timeline-host');
    if (data.device_trace) {
      facts.timeline.device = swimlane(data.device_trace, 'Device time (estimated)', 'timeline-device');
    } else {
      note('timeline', 'No device-time swimlane (chip_swimlane_device.json; a failed run has none).');
    }
  }

  // ---- kernels ------------------------------------------------------------------------------------------------
  function kernels() {
    var s = section('kernels');
    var rows = data.kernels || [];
    if (!rows.length) {
      note('kernels', 'No per-task times: run with --report, --enable-pmu or --enable-chip-swimlane.');
      return;
    }
    s.appendChild(table(['kernel', 'tasks', 'total us', 'mean us', 'GFLOP/s', 'GB/s', 'device us (est.)',
      'device GFLOP/s', 'FLOP/byte'], rows.map(function (k) {
      return [k.kernel, k.tasks, num(k.total_us, 1), num(k.mean_us, 2), num(k.gflops, 3), num(k.gbps, 3),
        num(k.device_us, 2), num(k.device_gflops, 1), num(k.intensity, 2)];
    }), [false, true, true, true, true, true, true, true, true]));
    var plotted = rows.filter(function (k) { return k.flops > 0 && k.bytes > 0; });
    facts.kernels = {rows: rows.length, roofline_points: plotted.length};
    if (!plotted.length) {
      note('kernels', 'No roofline: no kernel with FLOPs and bytes (pmu.csv: --report or --enable-pmu).');
      return;
    }
    var p = data.peaks;
    function roof(gflops, gbps) {
      var pts = [];
      for (var e = -3; e <= 4; e += 0.05) {
        var x = Math.pow(10, e);
        pts.push([x, Math.min(gflops, x * gbps)]);
      }
      return pts;
    }
    var series = [
      {name: 'host peak (measured)', type: 'line', showSymbol: false, data: roof(p.host_gflops, p.host_gbps),
        lineStyle: {color: '#2f4554'}},
      {name: 'kernels, host time', type: 'scatter', symbolSize: 12, data: plotted.map(function (k) {
        return {value: [k.intensity, k.gflops], name: k.kernel};
      }), label: {show: true, formatter: '{b}', position: 'right'}}];
    if (p.device_gflops) {
      series.push({name: 'device peak', type: 'line', showSymbol: false,
        data: roof(p.device_gflops, p.device_gbps), lineStyle: {color: '#c0392b'}});
      series.push({name: 'kernels, device time (est.)', type: 'scatter', symbol: 'diamond', symbolSize: 12,
        data: plotted.filter(function (k) { return k.device_us > 0; }).map(function (k) {
          return {value: [k.intensity, k.device_gflops], name: k.kernel};
        }), label: {show: true, formatter: '{b}', position: 'right'}});
    }
    s.appendChild(el('h3', {}, ['Roofline']));
    var c = chart(s, 460);
    c.div.id = 'roofline';
    c.chart.setOption({
      animation: false, legend: {top: 0},
      tooltip: {formatter: function (q) {
        return (q.name || q.seriesName) + ': ' + num(q.value[1], 3) + ' GFLOP/s at ' + num(q.value[0], 3) + ' FLOP/B';
      }},
      grid: {left: 80, right: 140, top: 40, bottom: 50},
      xAxis: {type: 'log', name: 'FLOP/byte', nameLocation: 'middle', nameGap: 28},
      yAxis: {type: 'log', name: 'GFLOP/s'},
      series: series
    });
    s.appendChild(el('p', {'class': 'note'}, ['Host peak measured when the report was made: '
      + num(p.host_gflops, 2) + ' GFLOP/s (one core, fp64 multiply-add), ' + num(p.host_gbps, 1) + ' GB/s (copy)'
      + (p.device_gflops ? '; device peak ' + num(p.device_gflops, 0) + ' GFLOP/s (fp16 cube), '
        + num(p.device_gbps, 0) + ' GB/s.' : '.')]));
  }

  // ---- dependency graph ---------------------------------------------------------------------------------------
  function graph() {
    var s = section('graph');
    var g = data.graph;
    if (!g) {
      note('graph', 'No deps.json: run with --report or --enable-dep-gen.');
      return;
    }
    if (g.mode === 'summary') {
      s.appendChild(el('p', {}, [g.tasks + ' tasks and ' + g.edges + ' edges: too many to draw; per kernel pair:']));
      s.appendChild(el('div', {'class': 'cols'}, [
        table(['kernel', 'tasks'], g.kernels.map(function (k) { return [k.kernel, k.tasks]; }), [false, true]),
        table(['producer kernel', 'consumer kernel', 'edges'], g.pairs.map(function (q) {
          return [q.from, q.to, q.edges];
        }), [false, false, true])]));
      var kc = chart(s, 420);
      kc.div.id = 'graph-chart';
      var idx = {};
      g.kernels.forEach(function (k, i) { idx[k.kernel] = i; });
      var maxEdges = max(g.pairs.map(function (q) { return q.edges; }));
      kc.chart.setOption({animation: false, tooltip: {},
        series: [{type: 'graph', layout: 'circular', roam: true, label: {show: true}, edgeSymbol: ['none', 'arrow'],
          data: g.kernels.map(function (k) {
            return {name: k.kernel, value: k.tasks, symbolSize: 12 + 30 * Math.sqrt(k.tasks / g.tasks)};
          }),
          links: g.pairs.filter(function (q) { return q.from !== q.to; }).map(function (q) {
            return {source: idx[q.from], target: idx[q.to], value: q.edges,
              lineStyle: {width: 1 + 5 * q.edges / maxEdges}};
          })}]});
      facts.graph = {mode: 'summary', kernels: g.kernels.length, pairs: g.pairs.length};
      return;
    }
    var layers = max(g.nodes.map(function (n) { return n[2]; })) + 1;
    s.appendChild(el('p', {}, [g.nodes.length + ' tasks, ' + g.edges.length + ' edges, ' + layers
      + ' layers (a task sits one layer right of its deepest producer). Click a kernel in the legend to hide '
      + 'its tasks; drag to pan, wheel to zoom.']));
    var widest = max(g.nodes.map(function (n) { return n[3]; })) + 1;
    var c = chart(s, Math.min(800, 140 + widest * 16));
    c.div.id = 'graph-chart';
    c.chart.setOption({
      animation: false,
      legend: {data: g.kernels, top: 0, type: 'scroll'},
      tooltip: {formatter: function (q) {
        return q.dataType === 'edge' ? g.nodes[q.data.source][0] + ' -> ' + g.nodes[q.data.target][0]
          : 'task ' + q.name + '<br>kernel ' + g.kernels[q.data.category];
      }},
      series: [{type: 'graph', layout: 'none', roam: true, edgeSymbol: ['none', 'arrow'], edgeSymbolSize: 5,
        symbolSize: 8, categories: g.kernels.map(function (k) { return {name: k}; }),
        lineStyle: {opacity: 0.4, width: 0.6},
        data: g.nodes.map(function (n) { return {name: n[0], category: n[1], x: n[2] * 60, y: n[3] * 16}; }),
        links: g.edges.map(function (e) { return {source: e[0], target: e[1]}; })}]
    });
    var drawn = c.chart.getOption().series[0];
    facts.graph = {mode: 'full', nodes: drawn.data.length, edges: drawn.links.length, layers: layers};
  }

  // ---- failure ------------------------------------------------------------------------------------------------
  function failure() {
    var s = section('failure');
    var f = data.failure;
    if (!f) {
      note('failure', 'The run did not fail.');
      return;
    }
    s.appendChild(el('pre', {'class': 'message', 'id': 'failure-message'}, [f.message]));
    if (f.stop) {
      s.appendChild(el('p', {}, ['Stopped at ' + num(f.stop.t_us / 1000, 3) + ' ms in a scope at depth ' + f.stop.depth
        + ' (ring ' + f.stop.ring + '): heap ' + bytes(f.stop.heap) + ' in use, ' + f.stop.tasks + ' live tasks, '
        + f.stop.deps + ' dep-pool entries.']));
    }
    if (f.waiting) {
      s.appendChild(el('p', {}, [f.not_run + ' of ' + f.submitted + ' submitted tasks never ran'
        + (f.not_run > f.waiting.length ? '; the first ' + f.waiting.length + ':' : ':')]));
      s.appendChild(table(['task', 'kernel', 'waited on (producers)'], f.waiting.map(function (w) {
        return [w.task, w.kernel, w.on.length ? w.on.join(', ') : 'nothing: it waited for a task slot or heap'];
      })));
    }
    facts.failure = {not_run: f.not_run === undefined ? null : f.not_run, message: f.message};
  }

  [summary, rings, timeline, kernels, graph, failure].forEach(function (part) {
    try {
      part();
    } catch (e) {
      window.reportErrors.push(part.name + ': ' + (e && e.stack ? e.stack : e));
    }
  });
  document.getElementById('chart-facts').textContent = JSON.stringify(facts);
  function publishErrors() {
    document.getElementById('report-errors').textContent = JSON.stringify(window.reportErrors);
  }
  publishErrors();
  window.addEventListener('load', function () { setTimeout(publishErrors, 300); });
})();
