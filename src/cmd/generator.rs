//! `gen`: reproducible test data, to standard output or as a folder of tests with answers.

use crate::cmd::solve::run_stream_as;
use crate::config::{GenConfig, InputFormat};
use crate::error::{Error, InputName};
use crate::game::AfterWin;
use crate::judging::generate::{Layout, write_all_games, write_file_as};
use std::fs::{self, File};
use std::io::{BufReader, Write};
use std::path::Path;

/// Writes what the config asks for. A folder's tests are `01.in`, `02.in`
/// ... (wider numbers past 99), each with the solver's `.ans`.
pub fn run(config: &GenConfig, output: impl Write) -> Result<u8, Error> {
    if let Some(n) = config.all_games {
        write_all_games(n, config.layout, output).map_err(Error::Write)?;
        return Ok(0);
    }
    config
        .spec
        .check()
        .map_err(|bad| Error::Usage(bad.to_string()))?;
    if config.out_dir.is_some()
        && config.spec.play_past_win
        && config.answer_rules.after_win == AfterWin::Error
    {
        return Err(Error::Usage(
            "--play-past-win makes inputs the solver rejects under --after-win error; \
             choose --after-win continue or leetcode for the .ans files"
                .into(),
        ));
    }
    match &config.out_dir {
        None => write_file_as(&config.spec, 0, config.layout, output).map_err(Error::Write)?,
        Some(dir) => write_folder(config, dir)?,
    }
    Ok(0)
}

fn write_folder(config: &GenConfig, dir: &Path) -> Result<(), Error> {
    let cannot_create = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Error::CreateOutput { path, source }
    };
    fs::create_dir_all(dir).map_err(cannot_create(dir))?;
    let width = config.count.to_string().len().max(2);
    for number in 1..=config.count {
        let name = format!("{number:0width$}");
        let input = dir.join(format!("{name}.in"));
        let answer = dir.join(format!("{name}.ans"));
        write_test(config, number, &input)?;
        let source = File::open(&input).map_err(|source| Error::Open {
            path: input.clone(),
            source,
        })?;
        let sink = File::create(&answer).map_err(cannot_create(&answer))?;
        let format = match config.layout {
            Layout::CodingNinjas => InputFormat::CodingNinjas,
            Layout::Leetcode => InputFormat::Leetcode,
        };
        run_stream_as(
            BufReader::new(source),
            InputName::Path(input.clone()),
            format,
            config.answer_rules,
            sink,
        )?;
    }
    Ok(())
}

fn write_test(config: &GenConfig, number: u64, path: &Path) -> Result<(), Error> {
    let file = File::create(path).map_err(|source| Error::CreateOutput {
        path: path.to_path_buf(),
        source,
    })?;
    write_file_as(&config.spec, number, config.layout, file).map_err(Error::Write)
}
