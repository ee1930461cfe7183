/**
 * A list's download button: a menu of the formats the server writes, CSV (text, for other programs and the CSV
 * update) or an Excel workbook (numbers and dates as such, the header row kept in view).
 */
import { Button, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { CaretDownIcon, DocumentIcon, DownloadIcon, GridViewIcon } from '@blueprintjs/icons';
import { FormattedMessage, useIntl } from 'react-intl';
import type { DownloadFormat } from '@shared/spreadsheet';

export function DownloadMenu({ loading, onDownload }: { loading: boolean; onDownload: (format: DownloadFormat) => void }) {
  const intl = useIntl();
  return (
    <PopoverNext
      placement="bottom-end"
      disabled={loading}
      content={
        <Menu aria-label={intl.formatMessage({ id: 'list.downloadAs' })} data-testid="list-download-menu">
          <MenuItem
            icon={<DocumentIcon />}
            text={intl.formatMessage({ id: 'list.download.csv' })}
            onClick={() => onDownload('csv')}
            data-testid="list-download-csv"
          />
          <MenuItem
            icon={<GridViewIcon />}
            text={intl.formatMessage({ id: 'list.download.xlsx' })}
            onClick={() => onDownload('xlsx')}
            data-testid="list-download-xlsx"
          />
        </Menu>
      }
    >
      <Button icon={<DownloadIcon />} endIcon={<CaretDownIcon />} data-testid="list-download" loading={loading}>
        <FormattedMessage id="list.downloadAs" />
      </Button>
    </PopoverNext>
  );
}
